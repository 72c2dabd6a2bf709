#!/usr/bin/env bash
# reef-cli on hostile model folders and audio files (issue #13): every case must end with a clear
# message naming the file and the problem, an exit code below 128 (no signal: no SIGFPE, no
# abort, no OOM kill), within a timeout (no hang), and with nothing written.
# The cases are demo models with one defect each, made by data/hostile/make_hostile.py.
set -u
CLI="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
T="${REEF_TEST_TMP:-/tmp}/hostile_inputs"
rm -rf "$T" && mkdir -p "$T"
pass=0; fail=0

"$CLI" demo-model "$T/s2" --preset tiny >/dev/null || { echo "FAIL: demo-model s2"; exit 1; }
"$CLI" demo-model "$T/s1" --preset tiny --layout s1 >/dev/null || { echo "FAIL: demo-model s1"; exit 1; }
python3 "$HERE/data/hostile/make_hostile.py" "$T/s2" "$T/s1" "$T/c" || { echo "FAIL: make_hostile.py"; exit 1; }

# refuse NAME WORD... -- CMD: CMD must fail (rc 1..127) within 60 s, print every WORD, write no x.wav.
refuse() {
    local name="$1"; shift
    local words=()
    while [[ "$1" != "--" ]]; do words+=("$1"); shift; done
    shift
    rm -f "$T/x.wav"
    timeout -k 5 60 "$@" >"$T/out.txt" 2>&1
    local rc=$?
    local bad=""
    if [[ $rc -eq 0 ]]; then bad="succeeded"; fi
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then bad="timed out (hang)"; fi
    if [[ $rc -ge 128 ]]; then bad="died of signal $((rc - 128))"; fi
    for w in "${words[@]}"; do grep -qF -- "$w" "$T/out.txt" || bad="${bad:+$bad; }message lacks '$w'"; done
    if [[ -e "$T/x.wav" ]] || ls "$T"/x.wav.part* >/dev/null 2>&1; then bad="${bad:+$bad; }wrote an output file"; fi
    if [[ -n "$bad" ]]; then
        fail=$((fail+1)); echo "FAIL [$name] (rc $rc): $bad"; sed 's/^/    /' "$T/out.txt" | head -20
    else
        pass=$((pass+1)); echo "ok   [$name] $(grep -m1 -i 'error' "$T/out.txt" | cut -c1-200)"
    fi
}
# synth CASE WORD...: reef-cli synth on the case folder must be refused with every WORD. The text
# makes a backtracking pre-tokenizer regex explode (40 a's, then no b where it wants one).
synth() {
    local name="$1"; shift
    refuse "$name" "$@" -- "$CLI" synth -m "$T/c/$name" -t "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac b" \
        --max-new-frames 2 -o "$T/x.wav"
}

synth codec_rate_zero codec_config.json "encoder_rates[0] is 0"
synth index_dotdot model.safetensors.index.json "../outside/stolen.safetensors" "climbs out"
synth index_absolute model.safetensors.index.json "absolute path"
synth safetensors_range model.safetensors "outside the data buffer"
synth pth_expansion model.pth "expands to more than"
synth pth_broadcast model.pth "more elements than its storage"
synth config_seq_len config.json max_seq_len "out of range"
synth config_vocab config.json vocab_size "out of range"
synth config_layers config.json n_layer "out of range"
synth config_s1_dim config.json dim "out of range"
synth config_too_big config.json "needs" "GB is available"
synth tiktoken_rank tokenizer.tiktoken "rank 2147483000 is out of range"
synth tokenizer_id tokenizer.json "zzzz is out of range"
synth tokenizer_regex tokenizer.json "match limit"
synth config_fifo config.json "not a regular file"
synth config_huge config.json "too large"
for wav in zero_channels zero_rate one_hz fifo; do
    refuse "$wav.wav" "$wav.wav" -- "$CLI" encode "$T/c/$wav.wav" -m "$T/s2" -o "$T/x.npy"
done
refuse one_hz_rate one_hz.wav "sample rate 1 Hz is out of range" -- "$CLI" encode "$T/c/one_hz.wav" -m "$T/s2" -o "$T/x.npy"
refuse fifo_regular fifo.wav "not a regular file" -- "$CLI" play "$T/c/fifo.wav"
[[ ! -e "$T/x.npy" ]] || { fail=$((fail+1)); echo "FAIL: an encode wrote $T/x.npy"; }
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]] || exit 1
# A pass leaves nothing behind (~270 MB of model copies); a failure keeps the folder to look at.
rm -rf "$T"
