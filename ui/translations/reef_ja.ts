<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>reef::ui::AboutDialog</name>
    <message>
        <source>About Reef</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h2&gt;Reef %1&lt;/h2&gt;&lt;p&gt;A native desktop studio for fish-speech text-to-speech.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::Banner</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::BenchTableModel</name>
    <message>
        <source>no audio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ran</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NON-FINITE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OVER</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the %2 frames/s that memory bandwidth allows (%3 GB/s ÷ %4 MB per frame)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>arm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm frames/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cold first frame (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first audio (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backend per call site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |Δ logit|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>greedy agreement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>listen</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::CompareView</name>
    <message>
        <source>Pick arms and press Run: every arm decodes the same prompt with the same seed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bench failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arm %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arms: every checked combination runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SDPA policy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frames </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repeats </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context sweep, e.g. 128,512,2048</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt lengths in tokens. For each, every arm decodes after a real prompt of about that length; the chart on the right draws frames/s against it. Empty = no sweep.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context sweep lengths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm frames/s (higher is better)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time to first audio, ms (lower is better)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context sweep: set lengths and run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check at least one compile mode, one SDPA policy and one KV mode.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Running %n arm(s)…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>this build has no bench runner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>▶ play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 arm(s) on %2 · %3 · libtorch %4 · reference: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm frames/s against prompt tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1.png</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report for fish-speech PR #1337, with WAVs (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export bench report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md);;CSV (*.csv);;JSON (*.json);;PNG charts (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::EngineController</name>
    <message>
        <source>cancelled: a model load was requested</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::MainWindow</name>
    <message>
        <source>Audio output: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Synthesis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playback: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open model folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reload model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Voice library…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Reef</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;Still using the previous model, %1; Generate keeps working.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not load the model.&lt;/b&gt; %1%2&lt;br&gt;Pick a fish-speech S2-Pro or S1-mini folder in Settings → Model, or with File → Open model folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Synthesis failed.&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not encode the reference clip: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;No model is configured&lt;/b&gt; and Reef could not create its demo model: %1&lt;br&gt;Open a fish-speech model folder with File → Open model folder….</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a model folder first (File → Open model folder…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a fish-speech model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Demo model loaded.&lt;/b&gt; &quot;%1&quot; has &lt;b&gt;random weights&lt;/b&gt;: it runs the whole pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or S1-mini model and open its folder with File → Open model folder….</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1 (%2 M parameters) from %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a model first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model is loading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bench is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no take at row %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it to another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export WAV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WAV audio (*.wav)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the reference clip: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::PerfChartWidget</name>
    <message>
        <source>Decode speed and memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention backend per call site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention: no run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::PerfHistoryModel</name>
    <message>
        <source>t (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::PlayerBar</name>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export WAV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::SettingsPanel</name>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fish-speech S2-Pro / S1-mini folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine (applies on the next load)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>active: attend over the filled cache prefix only; full: the whole cache with a mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extra cache rows beyond prompt + max new frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SDPA policy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV margin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 = greedy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no batching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>UTF-8 bytes of text per batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max new frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chunk length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play while generating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a fish-speech model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no output device found</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::SynthesisPanel</name>
    <message>
        <source>Type the text to speak.
For dialogue, start each turn with a speaker tag: &lt;|speaker:0|&gt;Hello! &lt;|speaker:1|&gt;Hi there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert a sample text…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ speaker tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dialogue: each turn starts with &lt;|speaker:N|&gt;; N picks the speaker (0, 1, …).
With a reference voice, speaker 0 speaks in that voice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voices…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(model&apos;s own voice)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (not encoded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type some text first: there is nothing to speak.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA ≤ %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 frames · %2 s elapsed · %3 · %4× real time</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::TakesModel</name>
    <message>
        <source>(default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>audio s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RTF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stop</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::TakesView</name>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export take…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::VoiceLibraryDialog</name>
    <message>
        <source>Voice library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcript: exactly what is said in the reference clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add clip…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference clips give the model a voice to imitate; double-click a name to rename. Codes are computed once by the codec and cached on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codes cached: %1 frames (%2 s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not encoded yet: it is encoded once a model with a codec is loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audio (*.wav *.flac *.ogg *.mp3 *.aiff);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is said in the clip:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot add the voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot; and its cached codes?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot delete the voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the transcript</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::VoiceListModel</name>
    <message>
        <source>
(codes cached: %1 frames)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
(not encoded yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the voice&apos;s metadata in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference clip not found: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a voice needs a name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot use %1 as a reference clip: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the voice folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot copy %1 into the voice library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no voice at row %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot delete %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>voice %1 no longer exists</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reef::ui::WaveformWidget</name>
    <message>
        <source>Click to seek</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
