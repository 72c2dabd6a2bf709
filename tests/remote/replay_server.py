#!/usr/bin/env python3
"""Replay servers for the remote backend's tests: fish-speech's api_server, SGLang-Omni and
vLLM-Omni as their wire formats are documented (README.md, "Remote engines"; the servers'
sources: fish-speech tools/server/views.py + inference.py, sglang-omni openai_api.py 0.1.9 and
2026-04, vllm-omni serving_speech.py 0.30.0), plus servers that misbehave in every way a real one
can. Standard library only.

The first path segment picks the scenario: http://127.0.0.1:PORT/<scenario>/v1/tts. Each request's
body is written to <record-dir>/<scenario>.body (and its headers to .headers) so a test can check
what the client sent. The audio is a deterministic tone the test computes on its own:
sample[i] = round(0.5 * 32767 * sin(2 * pi * 440 * i / 44100)) as s16le, N_SAMPLES long.
"""
import argparse
import base64
import json
import math
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

N_SAMPLES = 44100  # one second
RATE = 44100


def tone_pcm(n=N_SAMPLES, start=0):
    return b"".join(struct.pack("<h", int(round(0.5 * 32767 * math.sin(2 * math.pi * 440 * (start + i) / RATE))))
                    for i in range(n))


def wav_file(pcm, rate=RATE, data_size=None):
    size = len(pcm) if data_size is None else data_size
    header = b"RIFF" + struct.pack("<I", (36 + size) & 0xFFFFFFFF) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    header += b"data" + struct.pack("<I", size & 0xFFFFFFFF)
    return header + pcm


def pieces(data, n):
    step = max(2, (len(data) // n) & ~1)
    return [data[i:i + step] for i in range(0, len(data), step)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    record_dir = "."
    api_key = "sekret"

    def log_message(self, *args):
        pass

    # --- plumbing -------------------------------------------------------------------------------
    def split(self):
        parts = self.path.split("?")[0].split("/", 2)
        scenario = parts[1] if len(parts) > 1 else ""
        route = "/" + parts[2] if len(parts) > 2 else "/"
        return scenario, route

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def record(self, scenario, body):
        with open(os.path.join(self.record_dir, scenario + ".body"), "wb") as f:
            f.write(body)
        with open(os.path.join(self.record_dir, scenario + ".headers"), "w") as f:
            f.write(str(self.headers))

    def send(self, status, payload, ctype="application/json", extra=None):
        data = json.dumps(payload).encode() if not isinstance(payload, (bytes, bytearray)) else bytes(payload)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def start_chunked(self, ctype):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def end_chunked(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def cut(self):
        """Closes the connection mid-body, as a crashed server does."""
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True

    def sse(self, payload, event=None):
        text = ("event: %s\n" % event if event else "") + "data: %s\n\n" % (
            payload if isinstance(payload, str) else json.dumps(payload))
        self.chunk(text.encode())

    # --- routes ---------------------------------------------------------------------------------
    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def route(self, method):
        scenario, route = self.split()
        body = self.body() if method == "POST" else b""
        if method == "POST":
            self.record(scenario, body)
        if scenario.startswith("fish"):
            return self.fish(scenario, route, body)
        if scenario.startswith("sglang") or scenario.startswith("vllm") or scenario.startswith("sse"):
            return self.openai(scenario, route, body)
        if scenario == "redirect":
            return self.send(307, b"", "text/plain", {"Location": "https://elsewhere.example/v1/health"})
        if scenario == "html":
            return self.send(200, b"<html><body>It works!</body></html>", "text/html")
        self.send(404, {"detail": "Not Found"})

    # fish-speech tools/api_server.py
    def fish(self, scenario, route, body):
        if scenario == "fish-auth" and self.headers.get("Authorization") != "Bearer " + self.api_key:
            return self.send(401, {"statusCode": 401, "message": "Invalid token", "error": "Unauthorized"})
        if route == "/v1/health":
            return self.send(200, {"status": "ok"})
        if route != "/v1/tts":
            return self.send(404, {"statusCode": 404, "message": None, "error": "Not Found"})
        ctype = self.headers.get("Content-Type", "")
        if ctype not in ("application/msgpack", "application/json"):
            return self.send(415, {"statusCode": 415, "message": None, "error": "Unsupported Media Type"})
        # The body is msgpack; streaming is the one flag the replay needs, found as the msgpack
        # key "streaming" followed by true (0xc3) or false (0xc2).
        key = b"\xa9streaming"
        at = body.find(key)
        streaming = at >= 0 and body[at + len(key):at + len(key) + 1] == b"\xc3"
        if scenario == "fish-422":
            return self.send(422, [{"type": "greater_than_equal", "loc": ["body", "temperature"],
                                    "msg": "Input should be greater than or equal to 0.1", "input": 0.0}])
        if scenario == "fish-403":
            return self.send(403, {"statusCode": 403, "message": "This key may not use /v1/tts", "error": "Forbidden"})
        if scenario == "fish-413":
            return self.send(413, {"statusCode": 413, "message": "Request body is too large", "error": "Payload Too Large"})
        if scenario == "fish-415":
            return self.send(415, {"statusCode": 415, "message": None, "error": "Unsupported Media Type"})
        if scenario == "fish-500":
            return self.send(500, {"statusCode": 500, "message": "Failed to generate speech",
                                   "error": "Internal Server Error"})
        if scenario == "fish-empty":
            return self.send(200, b"", "audio/wav")
        if scenario == "fish-html":
            return self.send(200, b"<html>Gateway says hello</html>", "text/html")
        if scenario == "fish-hang":
            self.start_chunked("audio/wav")
            self.chunk(tone_pcm(4410))
            time.sleep(4)
            return self.cut()
        pcm = tone_pcm()
        if not streaming:
            return self.send(200, wav_file(pcm), "audio/wav")
        # Streamed: headerless s16le mono 44.1 kHz, chunked, although the type says audio/wav; the
        # pieces split samples in half on purpose.
        self.start_chunked("audio/wav")
        if scenario == "fish-long":
            while True:
                try:
                    self.chunk(tone_pcm(44100))
                except (BrokenPipeError, ConnectionResetError):
                    return
        parts = pieces(pcm, 7)
        odd = [parts[0][:-1]] + [parts[0][-1:] + parts[1]] + parts[2:]   # a sample split across pieces
        for i, p in enumerate(odd):
            if scenario == "fish-cut" and i == 3:
                return self.cut()
            if scenario == "fish-slow":
                time.sleep(0.3)
            try:
                self.chunk(p)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.end_chunked()

    # SGLang-Omni and vLLM-Omni, OpenAI-compatible
    def openai(self, scenario, route, body):
        vllm = scenario.startswith("vllm")
        if route == "/health":
            return self.send(200, {"status": "healthy"})
        if route == "/v1/models":
            return self.send(200, {"object": "list", "data": [
                {"id": "fishaudio/s2-pro", "object": "model", "created": 0,
                 "owned_by": "vllm" if vllm else "sglang-omni"}]})
        if route == "/v1/audio/voices" and vllm:
            return self.send(200, {"voices": ["default"], "uploaded_voices": []})
        if route != "/v1/audio/speech":
            return self.send(404, {"detail": "Not Found"})
        try:
            req = json.loads(body)
        except ValueError:
            return self.send(400, {"error": {"message": "invalid JSON", "type": "BadRequestError", "code": 400}})
        if scenario == "sglang-oldref" and req.get("references"):
            return self.send(400, {"detail": "references[0].audio_path is required"})
        if scenario == "sglang-400":
            return self.send(400, {"error": {"message": "Streaming requires response_format='pcm'",
                                             "type": "BadRequestError", "param": None, "code": 400}})
        pcm = tone_pcm()
        if not req.get("stream"):
            return self.send(200, wav_file(pcm), "audio/wav")
        self.start_chunked("text/event-stream")
        parts = pieces(pcm, 5)
        if scenario == "sglang-old":    # 2026-04: every chunk a whole WAV file, then [DONE]
            for i, p in enumerate(parts):
                self.sse({"object": "audio.speech.chunk", "index": i, "finish_reason": None,
                          "audio": {"data": base64.b64encode(wav_file(p)).decode(), "format": "wav",
                                    "mime_type": "audio/wav", "sample_rate": RATE}})
            self.sse({"object": "audio.speech.chunk", "index": len(parts), "audio": None, "finish_reason": "stop",
                      "usage": {"input_tokens": 5, "output_tokens": 21}})
            self.sse("[DONE]")
            return self.end_chunked()
        for i, p in enumerate(parts):
            if scenario == "sse-truncated" and i == 2:
                return self.end_chunked()   # a clean end of the body, but without the final event
            if scenario == "sse-malformed" and i == 1:
                self.chunk(b"data: {\"type\": \"speech.audio.delta\", \"audio\": \n\n")
                return self.end_chunked()
            if scenario == "sse-badb64" and i == 1:
                self.sse({"type": "speech.audio.delta", "audio": "!!not base64!!"})
                return self.end_chunked()
            if scenario == "vllm-error" and i == 2:
                self.sse({"type": "speech.audio.error", "error": {"message": "CUDA out of memory", "type": "server_error",
                                                                  "param": None, "code": 500}},
                         event="speech.audio.error")
                return self.end_chunked()
            delta = {"type": "speech.audio.delta", "audio": base64.b64encode(p).decode()}
            if vllm:
                delta["response_format"] = "pcm"
                self.sse(delta, event="speech.audio.delta")
            else:
                self.sse(delta)
        done = {"type": "speech.audio.done", "usage": {"input_tokens": 5, "output_tokens": 21, "total_tokens": 26}}
        self.sse(done, event="speech.audio.done" if vllm else None)
        self.end_chunked()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--record-dir", required=True)
    args = ap.parse_args()
    Handler.record_dir = args.record_dir
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    # Ends with the test: stdin closes when the parent dies.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
