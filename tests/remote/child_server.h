// A server run as a child process for a test: started with its stdin on a pipe (the replay server
// exits when it closes), ready once it has written its port to a file, stopped (SIGTERM, then
// waited for) when the test is done with it.
#pragma once
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace reef_test {

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class ChildServer {
public:
    // argv[0] is looked up in PATH; port_file is where the child writes its port.
    ChildServer(const std::vector<std::string>& argv, const std::filesystem::path& port_file,
                const std::filesystem::path& log_file, double ready_timeout_s = 60) {
        std::filesystem::remove(port_file);
        int fds[2];
        if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
        m_pid = fork();
        if (m_pid == 0) {
            dup2(fds[0], 0);
            close(fds[1]);
            if (FILE* log = std::fopen(log_file.c_str(), "w")) {
                dup2(fileno(log), 1);
                dup2(fileno(log), 2);
            }
            std::vector<char*> args;
            for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            execvp(args[0], args.data());
            _exit(127);
        }
        close(fds[0]);
        m_stdin = fds[1];
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(ready_timeout_s);
        while (!std::filesystem::exists(port_file)) {
            int status = 0;
            if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1;
                throw std::runtime_error("the server exited before it was ready: " + slurp(log_file));
            }
            if (std::chrono::steady_clock::now() > until)
                throw std::runtime_error("the server was not ready in time: " + slurp(log_file));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        m_port = std::stoi(slurp(port_file));
    }
    ~ChildServer() {
        close(m_stdin);
        if (m_pid > 0) {
            kill(m_pid, SIGTERM);
            waitpid(m_pid, nullptr, 0);
        }
    }
    ChildServer(const ChildServer&) = delete;
    ChildServer& operator=(const ChildServer&) = delete;
    int port() const { return m_port; }
    std::string url(const std::string& path = {}) const { return "http://127.0.0.1:" + std::to_string(m_port) + path; }

private:
    pid_t m_pid = -1;
    int m_stdin = -1;
    int m_port = 0;
};

}  // namespace reef_test
