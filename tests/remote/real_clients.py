#!/usr/bin/env python3
"""Clients nobody here wrote, against reef-cli serve on the tiny demo model:

- fish-speech's wire format exactly as its tools/api_client.py sends it: every ServeTTSRequest field
  packed with ormsgpack (bytes as msgpack bin, None for seed and reference_id, latency, normalize),
  POST /v1/tts?format=msgpack with "authorization: Bearer" and "content-type: application/msgpack";
  the stream read as headerless PCM (api_client writes its own WAV header), the whole answer as WAV.
- the OpenAI Python SDK: client.audio.speech.create (WAV, MP3 and FLAC, speed), its streaming response
  (raw pcm with stream_format=audio, and SSE events), a cloned voice through extra_body (ref_audio
  as a data URL), and a wrong key raising the SDK's AuthenticationError.
- the Fish Audio SDK (fish-audio-sdk, made for api.fish.audio): Session.tts with its defaults
  (format mp3, no max_new_tokens: the server's --max-frames bounds it), WAV, and a wrong key.

Usage: real_clients.py REEF_CLI WORK_DIR. Exit 0 pass, 1 fail, 77 when the SDKs are not installed.
"""
import base64
import io
import json
import math
import os
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import wave

try:
    import ormsgpack
    import openai
    import fish_audio_sdk
except ImportError as e:  # the venv could not be made (no network): say what was not tested
    print(f"SKIP: {e} (scripts/setup.sh installs .venv-clients)")
    sys.exit(77)

KEY = "client-key"
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def clip_wav():
    frames = b"".join(struct.pack("<h", int(0.3 * 32767 * math.sin(2 * math.pi * 180 * i / 44100))) for i in range(44100))
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(frames)
    return buf.getvalue()


def read_wav(data):
    with wave.open(io.BytesIO(data)) as w:
        return w.getnchannels(), w.getsampwidth(), w.getframerate(), w.readframes(w.getnframes())


def is_mp3(data):
    # An ID3v2 tag, or an MPEG audio frame's 11-bit sync at once.
    return data[:3] == b"ID3" or (len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0)


def flac_stream_info(data):
    # STREAMINFO, the first metadata block after "fLaC": 20 bits of sample rate, 3 of channels - 1,
    # 5 of bits per sample - 1, 36 of total samples (the FLAC format specification).
    if data[:4] != b"fLaC" or data[4] & 0x7F != 0:
        return None
    b = data[8:8 + 34]
    rate = (b[10] << 12) | (b[11] << 4) | (b[12] >> 4)
    channels = ((b[12] >> 1) & 0x07) + 1
    total = ((b[13] & 0x0F) << 32) | int.from_bytes(b[14:18], "big")
    return rate, channels, total


MAX_FRAMES = 48          # the server's --max-frames
SAMPLES_PER_FRAME = 2048  # 44.1 kHz / 21.53 frames a second


def fish_request(streaming, clip):
    # tools/api_client.py builds ServeTTSRequest and packs the pydantic model: all fields, defaults included.
    return {
        "text": "Hello from fish-speech's own client.",
        "chunk_length": 300,
        "format": "wav",
        "references": [{"audio": clip, "text": "A low hum."}],
        "reference_id": None,
        "seed": None,
        "use_memory_cache": "off",
        "normalize": True,
        "streaming": streaming,
        "max_new_tokens": 40,
        "top_p": 0.8,
        "repetition_penalty": 1.1,
        "temperature": 0.8,
        "latency": "normal",
    }


def multipart(fields, files):
    boundary = "reef-test-boundary-7f3a"
    out = b""
    for name, value in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").encode()
    for name, (filename, data, ctype) in files.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\n"
                f"Content-Type: {ctype}\r\n\r\n").encode() + data + b"\r\n"
    return out + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def call(url, method="GET", data=None, ctype=None):
    headers = {"authorization": f"Bearer {KEY}"}
    if ctype:
        headers["content-type"] = ctype
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers), timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def fish_post(base, payload):
    req = urllib.request.Request(base + "/v1/tts?format=msgpack", data=ormsgpack.packb(payload), method="POST",
                                 headers={"authorization": f"Bearer {KEY}", "content-type": "application/msgpack"})
    return urllib.request.urlopen(req, timeout=120)


def main():
    cli, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    model = os.path.join(work, "demo")
    if not os.path.isdir(model):
        subprocess.run([cli, "demo-model", model], check=True, stdout=subprocess.DEVNULL)
    port_file = os.path.join(work, "port")
    if os.path.exists(port_file):
        os.remove(port_file)
    log = open(os.path.join(work, "serve.log"), "w")
    server = subprocess.Popen([cli, "serve", "-m", model, "--port", "0", "--port-file", port_file, "--api-key", KEY,
                               "--max-frames", str(MAX_FRAMES)],
                              stdout=log, stderr=log)
    try:
        for _ in range(600):
            if os.path.exists(port_file):
                break
            if server.poll() is not None:
                print(open(os.path.join(work, "serve.log")).read())
                return 1
            time.sleep(0.1)
        base = "http://127.0.0.1:" + open(port_file).read().strip()
        clip = clip_wav()

        # --- fish-speech's tools/api_client.py wire format ---
        with fish_post(base, fish_request(False, clip)) as r:
            ctype, body = r.headers.get("Content-Type"), r.read()
        channels, width, rate, pcm_whole = read_wav(body)
        check(r.status == 200 and ctype == "audio/wav", "fish msgpack, whole: 200 audio/wav")
        check((channels, width, rate) == (1, 2, 44100) and len(pcm_whole) > 0, "fish whole: a 44.1 kHz mono 16-bit WAV")
        with fish_post(base, fish_request(True, clip)) as r:
            streamed = b"".join(iter(lambda: r.read(1024), b""))
        check(len(streamed) % 2 == 0 and not streamed.startswith(b"RIFF"), "fish stream: headerless s16le PCM")
        check(len(streamed) == len(pcm_whole), f"fish stream: as long as the whole answer ({len(streamed)} bytes)")
        bad = urllib.request.Request(base + "/v1/tts", data=b"text=hi", method="POST",
                                     headers={"authorization": f"Bearer {KEY}", "content-type": "text/plain"})
        try:
            urllib.request.urlopen(bad, timeout=30)
            check(False, "fish: a text/plain body is refused")
        except urllib.error.HTTPError as e:
            err = json.loads(e.read())
            check(e.code == 415 and err.get("statusCode") == 415, "fish: text/plain refused with 415 {statusCode, message, error}")

        # --- stored voices, as fish-speech's /v1/references routes keep them ---
        status, body = call(base + "/v1/references/add", "POST", *multipart(
            {"id": "hum", "text": "A low hum."}, {"audio": ("hum.wav", clip, "audio/wav")}))
        check(status == 200 and ormsgpack.unpackb(body)["success"], "references/add (multipart): success, msgpack")
        status, _ = call(base + "/v1/references/add", "POST", *multipart(
            {"id": "hum", "text": "again"}, {"audio": ("hum.wav", clip, "audio/wav")}))
        check(status == 409, "references/add: the same id again is 409")
        status, body = call(base + "/v1/references/list?format=json")
        check(json.loads(body)["reference_ids"] == ["hum"], "references/list (?format=json): the stored id")
        with fish_post(base, dict(fish_request(False, clip), references=[], reference_id="hum")) as r:
            check(len(read_wav(r.read())[3]) > 0, "fish tts with reference_id: a WAV in the stored voice")
        try:
            fish_post(base, dict(fish_request(False, clip), references=[], reference_id="nobody"))
            check(False, "fish tts with an unknown reference_id is refused")
        except urllib.error.HTTPError as e:
            check(e.code == 404 and "nobody" in json.loads(e.read())["message"], "unknown reference_id: 404 naming it")
        status, body = call(base + "/v1/references/delete", "DELETE", json.dumps({"reference_id": "hum"}).encode(),
                            "application/json")
        check(status == 200 and ormsgpack.unpackb(body)["success"], "references/delete")
        status, body = call(base + "/v1/references/list")
        check(ormsgpack.unpackb(body)["reference_ids"] == [], "references/list (msgpack): empty again")

        # --- the OpenAI Python SDK ---
        client = openai.OpenAI(base_url=base + "/v1", api_key=KEY)
        model_id = client.models.list().data[0].id
        check("demo" in model_id, f"openai: models.list names the model ({model_id})")
        speech = client.audio.speech.create(model=model_id, voice="default", input="Hello from the OpenAI SDK.",
                                            response_format="wav", extra_body={"max_new_tokens": 40, "seed": 7})
        channels, width, rate, pcm = read_wav(speech.content)
        check((channels, width, rate) == (1, 2, 44100) and len(pcm) > 0, "openai speech.create: a WAV")
        with client.audio.speech.with_streaming_response.create(
                model=model_id, voice="default", input="Hello from the OpenAI SDK.", response_format="pcm",
                extra_body={"max_new_tokens": 40, "seed": 7, "stream_format": "audio"}) as r:
            raw = b"".join(r.iter_bytes())
        check(len(raw) == len(pcm), f"openai streamed raw pcm: the same length as the WAV's data ({len(raw)} bytes)")
        with client.audio.speech.with_streaming_response.create(
                model=model_id, voice="default", input="Hello from the OpenAI SDK.", response_format="pcm",
                extra_body={"max_new_tokens": 40, "seed": 7, "stream_format": "sse"}) as r:
            events = [json.loads(line[5:]) for line in r.iter_lines() if line.startswith("data:")]
        audio = b"".join(base64.b64decode(e["audio"]) for e in events if e.get("type") == "speech.audio.delta")
        check(events and events[-1].get("type") == "speech.audio.done", "openai SSE: ends with speech.audio.done")
        check(audio == raw, "openai SSE: the deltas hold the same PCM as the raw stream")
        cloned = client.audio.speech.create(
            model=model_id, voice="default", input="A cloned voice.", response_format="wav",
            extra_body={"max_new_tokens": 40, "ref_audio": "data:audio/wav;base64," + base64.b64encode(clip).decode(),
                        "ref_text": "A low hum."})
        check(len(read_wav(cloned.content)[3]) > 0, "openai: a cloned voice through extra_body ref_audio/ref_text")
        mp3 = client.audio.speech.create(model=model_id, voice="default", input="Hello from the OpenAI SDK.",
                                         response_format="mp3", extra_body={"max_new_tokens": 40, "seed": 7})
        check(is_mp3(mp3.content) and len(mp3.content) > 1000, f"openai response_format mp3: MPEG audio ({len(mp3.content)} bytes)")
        flac = client.audio.speech.create(model=model_id, voice="default", input="Hello from the OpenAI SDK.",
                                          response_format="flac", extra_body={"max_new_tokens": 40, "seed": 7})
        check(flac_stream_info(flac.content) == (44100, 1, len(pcm) // 2),
              f"openai response_format flac: 44.1 kHz mono, as many samples as the WAV ({flac_stream_info(flac.content)})")
        faster = client.audio.speech.create(model=model_id, voice="default", input="Hello from the OpenAI SDK.",
                                            response_format="wav", speed=1.25,
                                            extra_body={"max_new_tokens": 40, "seed": 7})
        n1, n125 = len(pcm) // 2, len(read_wav(faster.content)[3]) // 2
        check(n125 == round(n1 / 1.25), f"openai speed=1.25: {n125} samples for {n1} at speed 1 (round(n / 1.25))")
        try:
            openai.OpenAI(base_url=base + "/v1", api_key="wrong").audio.speech.create(
                model=model_id, voice="default", input="x")
            check(False, "openai: a wrong key is refused")
        except openai.AuthenticationError:
            check(True, "openai: a wrong key raises AuthenticationError")

        # --- the Fish Audio SDK, pointed at this server instead of api.fish.audio ---
        session = fish_audio_sdk.Session(KEY, base_url=base)
        default = b"".join(session.tts(fish_audio_sdk.TTSRequest(text="Hello from the Fish Audio SDK.")))
        check(is_mp3(default), f"fish-audio-sdk defaults (format mp3): MPEG audio ({len(default)} bytes)")
        wav = b"".join(session.tts(fish_audio_sdk.TTSRequest(text="Hello from the Fish Audio SDK.", format="wav")))
        channels, width, rate, frames = read_wav(wav)
        samples = len(frames) // 2
        check((channels, width, rate) == (1, 2, 44100) and 0 < samples <= MAX_FRAMES * SAMPLES_PER_FRAME,
              f"fish-audio-sdk format wav: a WAV of at most --max-frames {MAX_FRAMES} frames ({samples} samples)")
        greedy = dict(text="Hello from the Fish Audio SDK.", format="wav", temperature=0.0)
        plain = read_wav(b"".join(session.tts(fish_audio_sdk.TTSRequest(**greedy))))[3]
        fast = read_wav(b"".join(session.tts(fish_audio_sdk.TTSRequest(
            **greedy, prosody=fish_audio_sdk.Prosody(speed=2.0, volume=-6.0)))))[3]
        check(len(fast) // 2 == round(len(plain) // 2 / 2.0),
              f"fish-audio-sdk prosody speed 2.0: {len(fast) // 2} samples for {len(plain) // 2} (half)")
        try:
            b"".join(fish_audio_sdk.Session("wrong", base_url=base).tts(fish_audio_sdk.TTSRequest(text="x")))
            check(False, "fish-audio-sdk: a wrong key is refused")
        except fish_audio_sdk.HttpCodeErr as e:
            check(e.status == 401, "fish-audio-sdk: a wrong key raises HttpCodeErr 401")
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
