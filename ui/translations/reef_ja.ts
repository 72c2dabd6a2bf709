<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>reef::ui::AboutDialog</name>
    <message>
        <source>About Reef</source>
        <translation>Reef について</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Reef %1&lt;/h2&gt;&lt;p&gt;A native desktop studio for fish-speech text-to-speech.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Reef %1&lt;/h2&gt;&lt;p&gt;fish-speech 音声合成のためのネイティブ デスクトップ スタジオです。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>reef::ui::Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>reef::ui::BenchTableModel</name>
    <message>
        <source>no audio</source>
        <translation>音声なし</translation>
    </message>
    <message>
        <source> (reference)</source>
        <translation> (基準)</translation>
    </message>
    <message>
        <source>ran</source>
        <translation>実行済み</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>スキップ：%1</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>基準</translation>
    </message>
    <message>
        <source>NON-FINITE</source>
        <translation>非有限値</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>OVER</source>
        <translation>超過</translation>
    </message>
    <message>
        <source>%1 of the %2 frames/s that memory bandwidth allows (%3 GB/s ÷ %4 MB per frame)</source>
        <translation>メモリ帯域幅で可能な %2 frames/s のうち %1（%3 GB/s ÷ 1 フレームあたり %4 MB）</translation>
    </message>
    <message>
        <source>arm</source>
        <translation>構成</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>warm frames/s</source>
        <translation>ウォーム時 frames/s</translation>
    </message>
    <message>
        <source>% of roofline</source>
        <translation>ルーフライン比 %</translation>
    </message>
    <message>
        <source>cold first frame (ms)</source>
        <translation>コールド初回フレーム (ms)</translation>
    </message>
    <message>
        <source>first audio (ms)</source>
        <translation>最初の音声 (ms)</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>ピークメモリ</translation>
    </message>
    <message>
        <source>backend per call site</source>
        <translation>呼び出し箇所ごとのバックエンド</translation>
    </message>
    <message>
        <source>max |Δ logit|</source>
        <translation>最大 |Δ logit|</translation>
    </message>
    <message>
        <source>greedy agreement</source>
        <translation>貪欲一致率</translation>
    </message>
    <message>
        <source>listen</source>
        <translation>試聴</translation>
    </message>
</context>
<context>
    <name>reef::ui::CompareView</name>
    <message>
        <source>Pick arms and press Run: every arm decodes the same prompt with the same seed.</source>
        <translation>構成を選んで「実行」を押してください。すべての構成が同じプロンプトを同じシードでデコードします。</translation>
    </message>
    <message>
        <source>Bench failed: %1</source>
        <translation>ベンチマークに失敗しました：%1</translation>
    </message>
    <message>
        <source>Arm %1: %2</source>
        <translation>構成 %1：%2</translation>
    </message>
    <message>
        <source>Arms: every checked combination runs</source>
        <translation>構成：チェックしたすべての組み合わせを実行</translation>
    </message>
    <message>
        <source>Compile mode</source>
        <translation>コンパイルモード</translation>
    </message>
    <message>
        <source>SDPA policy</source>
        <translation>SDPA ポリシー</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV キャッシュ</translation>
    </message>
    <message>
        <source>frames </source>
        <translation>フレーム数 </translation>
    </message>
    <message>
        <source>repeats </source>
        <translation>繰り返し回数 </translation>
    </message>
    <message>
        <source>context sweep, e.g. 128,512,2048</source>
        <translation>コンテキストスイープ（例：128,512,2048）</translation>
    </message>
    <message>
        <source>Prompt lengths in tokens. For each, every arm decodes after a real prompt of about that length; the chart on the right draws frames/s against it. Empty = no sweep.</source>
        <translation>プロンプト長（トークン数）。長さごとに、すべての構成がほぼその長さの実際のプロンプトに続けてデコードします。右のグラフはその長さに対する frames/s を描きます。空欄 = スイープなし。</translation>
    </message>
    <message>
        <source>Context sweep lengths</source>
        <translation>コンテキストスイープの長さ</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>レポートをエクスポート…</translation>
    </message>
    <message>
        <source>warm frames/s (higher is better)</source>
        <translation>ウォーム時 frames/s（高いほど良い）</translation>
    </message>
    <message>
        <source>time to first audio, ms (lower is better)</source>
        <translation>最初の音声までの時間、ms（低いほど良い）</translation>
    </message>
    <message>
        <source>context sweep: set lengths and run</source>
        <translation>コンテキストスイープ：長さを設定して実行してください</translation>
    </message>
    <message>
        <source>Check at least one compile mode, one SDPA policy and one KV mode.</source>
        <translation>コンパイルモード、SDPA ポリシー、KV モードをそれぞれ 1 つ以上チェックしてください。</translation>
    </message>
    <message numerus="yes">
        <source>Running %n arm(s)…</source>
        <translation>
            <numerusform>%n 個の構成を実行中…</numerusform>
        </translation>
    </message>
    <message>
        <source>this build has no bench runner</source>
        <translation>このビルドにはベンチマークランナーがありません</translation>
    </message>
    <message>
        <source>▶ play</source>
        <translation>▶ 再生</translation>
    </message>
    <message>
        <source>%1 arm(s) on %2 · %3 · libtorch %4 · reference: %5</source>
        <translation>%2 で %1 個の構成 · %3 · libtorch %4 · 基準：%5</translation>
    </message>
    <message>
        <source>warm frames/s against prompt tokens</source>
        <translation>プロンプトのトークン数に対するウォーム時 frames/s</translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation>プロンプトのトークン数</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>cannot write %1.png</source>
        <translation>%1.png に書き込めません</translation>
    </message>
    <message>
        <source>Report for fish-speech PR #1337, with WAVs (*.md)</source>
        <translation>fish-speech PR #1337 用レポート、WAV 付き (*.md)</translation>
    </message>
    <message>
        <source>Export bench report</source>
        <translation>ベンチマークレポートをエクスポート</translation>
    </message>
    <message>
        <source>Markdown (*.md);;CSV (*.csv);;JSON (*.json);;PNG charts (*.png)</source>
        <translation>Markdown (*.md);;CSV (*.csv);;JSON (*.json);;PNG グラフ (*.png)</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 に書き込めません</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>レポートを %1 に書き込みました</translation>
    </message>
</context>
<context>
    <name>reef::ui::EngineController</name>
    <message>
        <source>cancelled: a model load was requested</source>
        <translation>キャンセルされました：モデルの読み込みが要求されました</translation>
    </message>
</context>
<context>
    <name>reef::ui::MainWindow</name>
    <message>
        <source>Audio output: %1</source>
        <translation>オーディオ出力：%1</translation>
    </message>
    <message>
        <source>Synthesis</source>
        <translation>合成</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>Playback: %1</source>
        <translation>再生：%1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open model folder…</source>
        <translation>モデルフォルダーを開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Reload model</source>
        <translation>モデルを再読み込み(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Voice library…</source>
        <translation>ボイスライブラリ(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Reef</source>
        <translation>Reef について(&amp;A)</translation>
    </message>
    <message>
        <source>&lt;br&gt;Still using the previous model, %1; Generate keeps working.</source>
        <translation>&lt;br&gt;引き続き以前のモデル %1 を使用しています。「生成」はそのまま使えます。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not load the model.&lt;/b&gt; %1%2&lt;br&gt;Pick a fish-speech S2-Pro or S1-mini folder in Settings → Model, or with File → Open model folder…</source>
        <translation>&lt;b&gt;モデルを読み込めませんでした。&lt;/b&gt;%1%2&lt;br&gt;「設定 → モデル」または「ファイル → モデルフォルダーを開く…」で、fish-speech の S2-Pro または S1-mini のフォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失敗：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Synthesis failed.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;合成に失敗しました。&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>停止しました。</translation>
    </message>
    <message>
        <source>Could not encode the reference clip: %1</source>
        <translation>参照音声をエンコードできませんでした：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model is configured&lt;/b&gt; and Reef could not create its demo model: %1&lt;br&gt;Open a fish-speech model folder with File → Open model folder….</source>
        <translation>&lt;b&gt;モデルが設定されていません&lt;/b&gt;。また、Reef はデモモデルを作成できませんでした：%1&lt;br&gt;「ファイル → モデルフォルダーを開く…」で fish-speech のモデルフォルダーを開いてください。</translation>
    </message>
    <message>
        <source>Choose a model folder first (File → Open model folder…).</source>
        <translation>先にモデルフォルダーを選んでください（ファイル → モデルフォルダーを開く…）。</translation>
    </message>
    <message>
        <source>Open a fish-speech model folder</source>
        <translation>fish-speech のモデルフォルダーを開く</translation>
    </message>
    <message>
        <source>&lt;b&gt;Demo model loaded.&lt;/b&gt; &quot;%1&quot; has &lt;b&gt;random weights&lt;/b&gt;: it runs the whole pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or S1-mini model and open its folder with File → Open model folder….</source>
        <translation>&lt;b&gt;デモモデルを読み込みました。&lt;/b&gt;「%1」の重みは&lt;b&gt;ランダム&lt;/b&gt;です。パイプライン全体は動作しますが、音声はノイズになります。実際の音声を得るには、fish-speech の S2-Pro または S1-mini モデルをダウンロードし、「ファイル → モデルフォルダーを開く…」でそのフォルダーを開いてください。</translation>
    </message>
    <message>
        <source>Loaded %1 (%2 M parameters) from %3</source>
        <translation>%3 から %1（%2 M パラメーター）を読み込みました</translation>
    </message>
    <message>
        <source>Load a model first</source>
        <translation>先にモデルを読み込んでください</translation>
    </message>
    <message>
        <source>The model is loading</source>
        <translation>モデルを読み込み中です</translation>
    </message>
    <message>
        <source>A bench is running</source>
        <translation>ベンチマークを実行中です</translation>
    </message>
    <message>
        <source>Done (%1): %2</source>
        <translation>完了（%1）：%2</translation>
    </message>
    <message>
        <source>no take at row %1</source>
        <translation>%1 行目にテイクがありません</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 に書き込みました</translation>
    </message>
    <message>
        <source>Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it to another folder.</source>
        <translation>音声を %1 にエクスポートできませんでした：%2。何も書き込まれていません。テイクは保持されているので、別のフォルダーにエクスポートできます。</translation>
    </message>
    <message>
        <source>Export WAV</source>
        <translation>WAV をエクスポート</translation>
    </message>
    <message>
        <source>WAV audio (*.wav)</source>
        <translation>WAV 音声 (*.wav)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>Cannot read the reference clip: %1</source>
        <translation>参照音声を読み込めません：%1</translation>
    </message>
</context>
<context>
    <name>reef::ui::PerfChartWidget</name>
    <message>
        <source>Decode speed and memory</source>
        <translation>デコード速度とメモリ</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation>メモリ (MiB)</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Attention backend per call site</source>
        <translation>呼び出し箇所ごとのアテンションバックエンド</translation>
    </message>
    <message>
        <source>attention: no run yet</source>
        <translation>アテンション：未実行</translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation>アテンション：%1</translation>
    </message>
</context>
<context>
    <name>reef::ui::PerfHistoryModel</name>
    <message>
        <source>t (s)</source>
        <translation>t (秒)</translation>
    </message>
    <message>
        <source>frame</source>
        <translation>フレーム</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>step (ms)</source>
        <translation>ステップ (ms)</translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation>メモリ (MiB)</translation>
    </message>
</context>
<context>
    <name>reef::ui::PlayerBar</name>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Export WAV…</source>
        <translation>WAV をエクスポート…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
</context>
<context>
    <name>reef::ui::SettingsPanel</name>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>fish-speech S2-Pro / S1-mini folder</source>
        <translation>fish-speech S2-Pro / S1-mini フォルダー</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Load model</source>
        <translation>モデルを読み込む</translation>
    </message>
    <message>
        <source>Engine (applies on the next load)</source>
        <translation>エンジン（次回の読み込み時に適用）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>デフォルト</translation>
    </message>
    <message>
        <source>active: attend over the filled cache prefix only; full: the whole cache with a mask</source>
        <translation>active：埋まっているキャッシュの先頭部分だけにアテンション、full：マスク付きでキャッシュ全体にアテンション</translation>
    </message>
    <message>
        <source>extra cache rows beyond prompt + max new frames</source>
        <translation>プロンプト + 最大新規フレーム数を超えて確保する追加のキャッシュ行数</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>デバイス</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU スレッド数</translation>
    </message>
    <message>
        <source>Compile mode</source>
        <translation>コンパイルモード</translation>
    </message>
    <message>
        <source>SDPA policy</source>
        <translation>SDPA ポリシー</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV キャッシュ</translation>
    </message>
    <message>
        <source>KV margin</source>
        <translation>KV マージン</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>サンプリング</translation>
    </message>
    <message>
        <source>0 = greedy</source>
        <translation>0 = 貪欲デコード</translation>
    </message>
    <message>
        <source>model limit</source>
        <translation>モデルの上限</translation>
    </message>
    <message>
        <source>no batching</source>
        <translation>分割なし</translation>
    </message>
    <message>
        <source>UTF-8 bytes of text per batch</source>
        <translation>1 バッチあたりのテキストの UTF-8 バイト数</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Max new frames</source>
        <translation>最大新規フレーム数</translation>
    </message>
    <message>
        <source>Chunk length</source>
        <translation>チャンク長</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>オーディオ</translation>
    </message>
    <message>
        <source>default output</source>
        <translation>デフォルトの出力</translation>
    </message>
    <message>
        <source>Play while generating</source>
        <translation>生成しながら再生</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Open a fish-speech model folder</source>
        <translation>fish-speech のモデルフォルダーを開く</translation>
    </message>
    <message>
        <source>no output device found</source>
        <translation>出力デバイスが見つかりません</translation>
    </message>
</context>
<context>
    <name>reef::ui::SynthesisPanel</name>
    <message>
        <source>Type the text to speak.
For dialogue, start each turn with a speaker tag: &lt;|speaker:0|&gt;Hello! &lt;|speaker:1|&gt;Hi there.</source>
        <translation>読み上げるテキストを入力してください。
対話では、各発話を話者タグで始めます：&lt;|speaker:0|&gt;こんにちは！&lt;|speaker:1|&gt;やあ、どうも。</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Insert a sample text…</source>
        <translation>サンプルテキストを挿入…</translation>
    </message>
    <message>
        <source>+ speaker tag</source>
        <translation>+ 話者タグ</translation>
    </message>
    <message>
        <source>Dialogue: each turn starts with &lt;|speaker:N|&gt;; N picks the speaker (0, 1, …).
With a reference voice, speaker 0 speaks in that voice.</source>
        <translation>対話：各発話は &lt;|speaker:N|&gt; で始めます。N で話者を選びます（0、1、…）。
参照ボイスを選ぶと、話者 0 はそのボイスで話します。</translation>
    </message>
    <message>
        <source>Voices…</source>
        <translation>ボイス…</translation>
    </message>
    <message>
        <source>Voice:</source>
        <translation>ボイス：</translation>
    </message>
    <message>
        <source>(model&apos;s own voice)</source>
        <translation>（モデル本来のボイス）</translation>
    </message>
    <message>
        <source> (not encoded)</source>
        <translation> (未エンコード)</translation>
    </message>
    <message>
        <source>Type some text first: there is nothing to speak.</source>
        <translation>先にテキストを入力してください。読み上げる内容がありません。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>開始しています…</translation>
    </message>
    <message>
        <source>ETA —</source>
        <translation>残り時間 —</translation>
    </message>
    <message>
        <source>ETA ≤ %1 s</source>
        <translation>残り時間 ≤ %1 秒</translation>
    </message>
    <message>
        <source>%1 frames · %2 s elapsed · %3 · %4× real time</source>
        <translation>%1 フレーム · 経過 %2 秒 · %3 · 実時間の %4×</translation>
    </message>
</context>
<context>
    <name>reef::ui::TakesModel</name>
    <message>
        <source>(default)</source>
        <translation>（デフォルト）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>voice</source>
        <translation>ボイス</translation>
    </message>
    <message>
        <source>frames</source>
        <translation>フレーム数</translation>
    </message>
    <message>
        <source>audio s</source>
        <translation>音声 (秒)</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>RTF</source>
        <translation>RTF</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止理由</translation>
    </message>
</context>
<context>
    <name>reef::ui::TakesView</name>
    <message>
        <source>Replay</source>
        <translation>もう一度再生</translation>
    </message>
    <message>
        <source>Export take…</source>
        <translation>テイクをエクスポート…</translation>
    </message>
</context>
<context>
    <name>reef::ui::VoiceLibraryDialog</name>
    <message>
        <source>Voice library</source>
        <translation>ボイスライブラリ</translation>
    </message>
    <message>
        <source>Transcript: exactly what is said in the reference clip</source>
        <translation>参照テキスト：参照音声で話されている内容をそのまま入力</translation>
    </message>
    <message>
        <source>Add clip…</source>
        <translation>音声を追加…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Save transcript</source>
        <translation>参照テキストを保存</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>参照テキスト</translation>
    </message>
    <message>
        <source>Reference clips give the model a voice to imitate; double-click a name to rename. Codes are computed once by the codec and cached on disk.</source>
        <translation>参照音声は、モデルが模倣するボイスになります。名前をダブルクリックすると名前を変更できます。コードはコーデックで一度だけ計算され、ディスクにキャッシュされます。</translation>
    </message>
    <message>
        <source>Codes cached: %1 frames (%2 s).</source>
        <translation>コードはキャッシュ済み：%1 フレーム（%2 秒）。</translation>
    </message>
    <message>
        <source>Not encoded yet: it is encoded once a model with a codec is loaded.</source>
        <translation>まだエンコードされていません。コーデックを含むモデルを読み込むとエンコードされます。</translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation>追加されませんでした：%1</translation>
    </message>
    <message>
        <source>Reference clip</source>
        <translation>参照音声</translation>
    </message>
    <message>
        <source>Audio (*.wav *.flac *.ogg *.mp3 *.aiff);;All files (*)</source>
        <translation>音声 (*.wav *.flac *.ogg *.mp3 *.aiff);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Voice name</source>
        <translation>ボイス名</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前：</translation>
    </message>
    <message>
        <source>What is said in the clip:</source>
        <translation>音声で話されている内容：</translation>
    </message>
    <message>
        <source>Cannot add the voice</source>
        <translation>ボイスを追加できません</translation>
    </message>
    <message>
        <source>Delete voice</source>
        <translation>ボイスを削除</translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot; and its cached codes?</source>
        <translation>「%1」とキャッシュされたコードを削除しますか？</translation>
    </message>
    <message>
        <source>Cannot delete the voice</source>
        <translation>ボイスを削除できません</translation>
    </message>
    <message>
        <source>Cannot save the transcript</source>
        <translation>参照テキストを保存できません</translation>
    </message>
</context>
<context>
    <name>reef::ui::VoiceListModel</name>
    <message>
        <source>
(codes cached: %1 frames)</source>
        <translation>
（コードはキャッシュ済み：%1 フレーム）</translation>
    </message>
    <message>
        <source>
(not encoded yet)</source>
        <translation>
（未エンコード）</translation>
    </message>
    <message>
        <source>cannot write the voice&apos;s metadata in %1: %2</source>
        <translation>%1 にボイスのメタデータを書き込めません：%2</translation>
    </message>
    <message>
        <source>reference clip not found: %1</source>
        <translation>参照音声が見つかりません：%1</translation>
    </message>
    <message>
        <source>a voice needs a name</source>
        <translation>ボイスには名前が必要です</translation>
    </message>
    <message>
        <source>cannot use %1 as a reference clip: %2</source>
        <translation>%1 を参照音声として使用できません：%2</translation>
    </message>
    <message>
        <source>cannot create the voice folder %1</source>
        <translation>ボイスフォルダー %1 を作成できません</translation>
    </message>
    <message>
        <source>cannot copy %1 into the voice library</source>
        <translation>%1 をボイスライブラリにコピーできません</translation>
    </message>
    <message>
        <source>no voice at row %1</source>
        <translation>%1 行目にボイスがありません</translation>
    </message>
    <message>
        <source>cannot delete %1</source>
        <translation>%1 を削除できません</translation>
    </message>
    <message>
        <source>voice %1 no longer exists</source>
        <translation>ボイス %1 はもう存在しません</translation>
    </message>
</context>
<context>
    <name>reef::ui::WaveformWidget</name>
    <message>
        <source>Click to seek</source>
        <translation>クリックしてシーク</translation>
    </message>
</context>
</TS>
