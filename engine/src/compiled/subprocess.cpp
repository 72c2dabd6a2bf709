#include "compiled/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace reef {
namespace {

constexpr size_t kStderrTail = 8192;

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& extra) {
    std::map<std::string, std::string> all;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv(*e);
        const size_t eq = kv.find('=');
        if (eq != std::string::npos) all[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    for (const auto& [k, v] : extra) all[k] = v;
    std::vector<std::string> out;
    for (const auto& [k, v] : all) out.push_back(k + "=" + v);
    return out;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
    std::vector<char*> out;
    for (auto& s : v) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// Drains what a pipe has now; complete lines go to on_line, the rest stays in `partial`.
bool drain(int fd, std::string& partial, const std::function<void(const std::string&)>& on_line) {
    char buf[4096];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return n < 0 && (errno == EAGAIN || errno == EINTR);
    partial.append(buf, size_t(n));
    size_t nl;
    while ((nl = partial.find('\n')) != std::string::npos) {
        if (on_line) on_line(partial.substr(0, nl));
        partial.erase(0, nl + 1);
    }
    return true;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv_in, const std::map<std::string, std::string>& env,
                      const std::function<void(const std::string&)>& on_line,
                      const std::function<bool()>& should_abort) {
    ChildResult r;
    int out_pipe[2], err_pipe[2], exec_pipe[2];
    // Close-on-exec everywhere: another child this process starts meanwhile (a second compile,
    // a codec worker's helper) must not inherit these pipes and keep them open.
    if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 || pipe2(exec_pipe, O_CLOEXEC) != 0) {
        r.spawn_failed = true;
        r.stderr_tail = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    std::vector<std::string> argv = argv_in, envv = merged_environment(env);
    std::vector<char*> c_argv = c_strings(argv), c_env = c_strings(envv);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);  // its own group: abort kills the compilers it starts too
        // and it dies with us: a Reef ended by SIGTERM or a crash leaves no exporter running
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);  // the parent was already gone before prctl
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]);
        close(err_pipe[0]);
        close(exec_pipe[0]);
        execvpe(c_argv[0], c_argv.data(), c_env.data());
        const int e = errno;
        (void)!write(exec_pipe[1], &e, sizeof e);  // tells the parent exec failed, and why
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    close(exec_pipe[1]);
    if (pid < 0) {
        r.spawn_failed = true;
        r.stderr_tail = std::string("fork: ") + std::strerror(errno);
        close(out_pipe[0]);
        close(err_pipe[0]);
        close(exec_pipe[0]);
        return r;
    }
    int exec_errno = 0;
    if (read(exec_pipe[0], &exec_errno, sizeof exec_errno) == ssize_t(sizeof exec_errno)) {
        r.spawn_failed = true;
        r.stderr_tail = argv_in[0] + ": " + std::strerror(exec_errno);
    }
    close(exec_pipe[0]);
    fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);

    std::string out_partial, err_all;
    bool out_open = true, err_open = true;
    auto keep_err = [&](const std::string& line) {
        err_all += line + "\n";
        if (err_all.size() > kStderrTail) err_all.erase(0, err_all.size() - kStderrTail);
    };
    std::string err_partial;
    while (out_open || err_open) {
        if (!r.aborted && should_abort && should_abort()) {
            r.aborted = true;
            kill(-pid, SIGTERM);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            kill(-pid, SIGKILL);
        }
        pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
        if (poll(fds, 2, 100) < 0 && errno != EINTR) break;
        if (out_open && (fds[0].revents & (POLLIN | POLLHUP))) out_open = drain(out_pipe[0], out_partial, on_line);
        if (err_open && (fds[1].revents & (POLLIN | POLLHUP))) err_open = drain(err_pipe[0], err_partial, keep_err);
    }
    if (!out_partial.empty() && on_line) on_line(out_partial);
    if (!err_partial.empty()) keep_err(err_partial);
    close(out_pipe[0]);
    close(err_pipe[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (r.aborted) kill(-pid, SIGKILL);  // stragglers of the group
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (!r.spawn_failed) r.stderr_tail = err_all;
    return r;
}

std::string child_failure(const ChildResult& r) {
    const std::string& err = r.stderr_tail;
    const std::string tag = "reef-export: error: ";
    if (const size_t at = err.rfind(tag); at != std::string::npos) {
        const size_t end = err.find('\n', at);
        return err.substr(at + tag.size(), end == std::string::npos ? std::string::npos : end - at - tag.size());
    }
    const std::string how = r.spawn_failed        ? "could not be started"
                            : r.exit_code >= 0    ? "exited with status " + std::to_string(r.exit_code)
                                                  : "was killed";
    std::string tail = err;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
    if (const size_t nl = tail.rfind('\n'); nl != std::string::npos) tail = tail.substr(nl + 1);
    return tail.empty() ? how : how + ": " + tail;
}

}  // namespace reef
