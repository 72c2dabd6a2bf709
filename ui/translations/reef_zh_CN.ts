<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>reef::ui::AboutDialog</name>
    <message>
        <source>About Reef</source>
        <translation>关于 Reef</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Reef %1&lt;/h2&gt;&lt;p&gt;A native desktop studio for fish-speech text-to-speech.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Reef %1&lt;/h2&gt;&lt;p&gt;面向 fish-speech 文本转语音的原生桌面工作室。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>reef::ui::Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>reef::ui::BenchTableModel</name>
    <message>
        <source>no audio</source>
        <translation>无音频</translation>
    </message>
    <message>
        <source> (reference)</source>
        <translation> (基准)</translation>
    </message>
    <message>
        <source>ran</source>
        <translation>已运行</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>基准</translation>
    </message>
    <message>
        <source>NON-FINITE</source>
        <translation>非有限值</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>OVER</source>
        <translation>超限</translation>
    </message>
    <message>
        <source>%1 of the %2 frames/s that memory bandwidth allows (%3 GB/s ÷ %4 MB per frame)</source>
        <translation>达到内存带宽上限 %2 frames/s 的 %1（%3 GB/s ÷ 每帧 %4 MB）</translation>
    </message>
    <message>
        <source>arm</source>
        <translation>测试组</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>warm frames/s</source>
        <translation>预热后 frames/s</translation>
    </message>
    <message>
        <source>% of roofline</source>
        <translation>roofline 占比 %</translation>
    </message>
    <message>
        <source>cold first frame (ms)</source>
        <translation>冷启动首帧 (ms)</translation>
    </message>
    <message>
        <source>first audio (ms)</source>
        <translation>首个音频 (ms)</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>backend per call site</source>
        <translation>各调用点的后端</translation>
    </message>
    <message>
        <source>max |Δ logit|</source>
        <translation>最大 |Δ logit|</translation>
    </message>
    <message>
        <source>greedy agreement</source>
        <translation>贪心一致率</translation>
    </message>
    <message>
        <source>listen</source>
        <translation>试听</translation>
    </message>
</context>
<context>
    <name>reef::ui::CompareView</name>
    <message>
        <source>Pick arms and press Run: every arm decodes the same prompt with the same seed.</source>
        <translation>选择测试组并点击“运行”：每个测试组都用相同的种子解码相同的提示词。</translation>
    </message>
    <message>
        <source>Bench failed: %1</source>
        <translation>基准测试失败：%1</translation>
    </message>
    <message>
        <source>Arm %1: %2</source>
        <translation>测试组 %1：%2</translation>
    </message>
    <message>
        <source>Arms: every checked combination runs</source>
        <translation>测试组：运行所有勾选的组合</translation>
    </message>
    <message>
        <source>Compile mode</source>
        <translation>编译模式</translation>
    </message>
    <message>
        <source>SDPA policy</source>
        <translation>SDPA 策略</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>frames </source>
        <translation>帧数 </translation>
    </message>
    <message>
        <source>repeats </source>
        <translation>重复次数 </translation>
    </message>
    <message>
        <source>context sweep, e.g. 128,512,2048</source>
        <translation>上下文扫描，例如 128,512,2048</translation>
    </message>
    <message>
        <source>Prompt lengths in tokens. For each, every arm decodes after a real prompt of about that length; the chart on the right draws frames/s against it. Empty = no sweep.</source>
        <translation>提示词长度（token 数）。对每个长度，每个测试组都会在约为该长度的真实提示词之后进行解码；右侧图表绘制 frames/s 随该长度的变化。留空 = 不扫描。</translation>
    </message>
    <message>
        <source>Context sweep lengths</source>
        <translation>上下文扫描长度</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <source>warm frames/s (higher is better)</source>
        <translation>预热后 frames/s（越高越好）</translation>
    </message>
    <message>
        <source>time to first audio, ms (lower is better)</source>
        <translation>首个音频耗时，ms（越低越好）</translation>
    </message>
    <message>
        <source>context sweep: set lengths and run</source>
        <translation>上下文扫描：请设置长度并运行</translation>
    </message>
    <message>
        <source>Check at least one compile mode, one SDPA policy and one KV mode.</source>
        <translation>请至少勾选一种编译模式、一种 SDPA 策略和一种 KV 模式。</translation>
    </message>
    <message numerus="yes">
        <source>Running %n arm(s)…</source>
        <translation>
            <numerusform>正在运行 %n 个测试组…</numerusform>
        </translation>
    </message>
    <message>
        <source>this build has no bench runner</source>
        <translation>此版本不含基准测试运行器</translation>
    </message>
    <message>
        <source>▶ play</source>
        <translation>▶ 播放</translation>
    </message>
    <message>
        <source>%1 arm(s) on %2 · %3 · libtorch %4 · reference: %5</source>
        <translation>%1 个测试组，运行于 %2 · %3 · libtorch %4 · 基准：%5</translation>
    </message>
    <message>
        <source>warm frames/s against prompt tokens</source>
        <translation>预热后 frames/s 随提示词 token 数的变化</translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation>提示词 token 数</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>cannot write %1.png</source>
        <translation>无法写入 %1.png</translation>
    </message>
    <message>
        <source>Report for fish-speech PR #1337, with WAVs (*.md)</source>
        <translation>fish-speech PR #1337 报告，含 WAV 音频 (*.md)</translation>
    </message>
    <message>
        <source>Export bench report</source>
        <translation>导出基准测试报告</translation>
    </message>
    <message>
        <source>Markdown (*.md);;CSV (*.csv);;JSON (*.json);;PNG charts (*.png)</source>
        <translation>Markdown (*.md);;CSV (*.csv);;JSON (*.json);;PNG 图表 (*.png)</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
</context>
<context>
    <name>reef::ui::EngineController</name>
    <message>
        <source>cancelled: a model load was requested</source>
        <translation>已取消：收到了加载模型的请求</translation>
    </message>
</context>
<context>
    <name>reef::ui::MainWindow</name>
    <message>
        <source>Audio output: %1</source>
        <translation>音频输出：%1</translation>
    </message>
    <message>
        <source>Synthesis</source>
        <translation>合成</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Playback: %1</source>
        <translation>播放：%1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open model folder…</source>
        <translation>打开模型文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Reload model</source>
        <translation>重新加载模型(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Voice library…</source>
        <translation>音色库(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Reef</source>
        <translation>关于 Reef(&amp;A)</translation>
    </message>
    <message>
        <source>&lt;br&gt;Still using the previous model, %1; Generate keeps working.</source>
        <translation>&lt;br&gt;仍在使用之前的模型 %1，“生成”功能照常可用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not load the model.&lt;/b&gt; %1%2&lt;br&gt;Pick a fish-speech S2-Pro or S1-mini folder in Settings → Model, or with File → Open model folder…</source>
        <translation>&lt;b&gt;无法加载模型。&lt;/b&gt;%1%2&lt;br&gt;请在“设置 → 模型”中选择 fish-speech S2-Pro 或 S1-mini 文件夹，或使用“文件 → 打开模型文件夹…”。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Synthesis failed.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;合成失败。&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Could not encode the reference clip: %1</source>
        <translation>无法编码参考音频：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model is configured&lt;/b&gt; and Reef could not create its demo model: %1&lt;br&gt;Open a fish-speech model folder with File → Open model folder….</source>
        <translation>&lt;b&gt;尚未配置模型&lt;/b&gt;，且 Reef 无法创建演示模型：%1&lt;br&gt;请通过“文件 → 打开模型文件夹…”打开 fish-speech 模型文件夹。</translation>
    </message>
    <message>
        <source>Choose a model folder first (File → Open model folder…).</source>
        <translation>请先选择模型文件夹（文件 → 打开模型文件夹…）。</translation>
    </message>
    <message>
        <source>Open a fish-speech model folder</source>
        <translation>打开 fish-speech 模型文件夹</translation>
    </message>
    <message>
        <source>&lt;b&gt;Demo model loaded.&lt;/b&gt; &quot;%1&quot; has &lt;b&gt;random weights&lt;/b&gt;: it runs the whole pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or S1-mini model and open its folder with File → Open model folder….</source>
        <translation>&lt;b&gt;已加载演示模型。&lt;/b&gt;“%1”使用的是&lt;b&gt;随机权重&lt;/b&gt;：它能跑通完整流程，但生成的音频只是噪声。如需真实语音，请下载 fish-speech S2-Pro 或 S1-mini 模型，并通过“文件 → 打开模型文件夹…”打开其文件夹。</translation>
    </message>
    <message>
        <source>Loaded %1 (%2 M parameters) from %3</source>
        <translation>已从 %3 加载 %1（%2 M 参数）</translation>
    </message>
    <message>
        <source>Load a model first</source>
        <translation>请先加载模型</translation>
    </message>
    <message>
        <source>The model is loading</source>
        <translation>模型正在加载</translation>
    </message>
    <message>
        <source>A bench is running</source>
        <translation>基准测试正在运行</translation>
    </message>
    <message>
        <source>Done (%1): %2</source>
        <translation>完成（%1）：%2</translation>
    </message>
    <message>
        <source>no take at row %1</source>
        <translation>第 %1 行没有生成结果</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it to another folder.</source>
        <translation>无法将音频导出到 %1：%2。未写入任何内容；生成结果仍然保留，可以将其导出到其他文件夹。</translation>
    </message>
    <message>
        <source>Export WAV</source>
        <translation>导出 WAV</translation>
    </message>
    <message>
        <source>WAV audio (*.wav)</source>
        <translation>WAV 音频 (*.wav)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Cannot read the reference clip: %1</source>
        <translation>无法读取参考音频：%1</translation>
    </message>
</context>
<context>
    <name>reef::ui::PerfChartWidget</name>
    <message>
        <source>Decode speed and memory</source>
        <translation>解码速度与内存</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation>内存 (MiB)</translation>
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
        <translation>各调用点的注意力后端</translation>
    </message>
    <message>
        <source>attention: no run yet</source>
        <translation>注意力：尚未运行</translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation>注意力：%1</translation>
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
        <translation>帧</translation>
    </message>
    <message>
        <source>frames/s</source>
        <translation>frames/s</translation>
    </message>
    <message>
        <source>step (ms)</source>
        <translation>单步 (ms)</translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation>内存 (MiB)</translation>
    </message>
</context>
<context>
    <name>reef::ui::PlayerBar</name>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Export WAV…</source>
        <translation>导出 WAV…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
</context>
<context>
    <name>reef::ui::SettingsPanel</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>fish-speech S2-Pro / S1-mini folder</source>
        <translation>fish-speech S2-Pro / S1-mini 文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Load model</source>
        <translation>加载模型</translation>
    </message>
    <message>
        <source>Engine (applies on the next load)</source>
        <translation>引擎（下次加载时生效）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>active: attend over the filled cache prefix only; full: the whole cache with a mask</source>
        <translation>active：仅对已填充的缓存前缀做注意力计算；full：对整个缓存做注意力计算并使用掩码</translation>
    </message>
    <message>
        <source>extra cache rows beyond prompt + max new frames</source>
        <translation>在提示词 + 最大新帧数之外额外预留的缓存行数</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <source>Compile mode</source>
        <translation>编译模式</translation>
    </message>
    <message>
        <source>SDPA policy</source>
        <translation>SDPA 策略</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>KV margin</source>
        <translation>KV 余量</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>0 = greedy</source>
        <translation>0 = 贪心解码</translation>
    </message>
    <message>
        <source>model limit</source>
        <translation>模型上限</translation>
    </message>
    <message>
        <source>no batching</source>
        <translation>不分批</translation>
    </message>
    <message>
        <source>UTF-8 bytes of text per batch</source>
        <translation>每批文本的 UTF-8 字节数</translation>
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
        <translation>最大新帧数</translation>
    </message>
    <message>
        <source>Chunk length</source>
        <translation>分块长度</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>音频</translation>
    </message>
    <message>
        <source>default output</source>
        <translation>默认输出</translation>
    </message>
    <message>
        <source>Play while generating</source>
        <translation>边生成边播放</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Open a fish-speech model folder</source>
        <translation>打开 fish-speech 模型文件夹</translation>
    </message>
    <message>
        <source>no output device found</source>
        <translation>未找到输出设备</translation>
    </message>
</context>
<context>
    <name>reef::ui::SynthesisPanel</name>
    <message>
        <source>Type the text to speak.
For dialogue, start each turn with a speaker tag: &lt;|speaker:0|&gt;Hello! &lt;|speaker:1|&gt;Hi there.</source>
        <translation>输入要朗读的文本。
如为对话，每轮以说话人标签开头：&lt;|speaker:0|&gt;你好！&lt;|speaker:1|&gt;嗨，你好。</translation>
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
        <translation>空闲</translation>
    </message>
    <message>
        <source>Insert a sample text…</source>
        <translation>插入示例文本…</translation>
    </message>
    <message>
        <source>+ speaker tag</source>
        <translation>+ 说话人标签</translation>
    </message>
    <message>
        <source>Dialogue: each turn starts with &lt;|speaker:N|&gt;; N picks the speaker (0, 1, …).
With a reference voice, speaker 0 speaks in that voice.</source>
        <translation>对话：每轮以 &lt;|speaker:N|&gt; 开头；N 指定说话人（0、1、…）。
选择参考音色时，说话人 0 使用该音色。</translation>
    </message>
    <message>
        <source>Voices…</source>
        <translation>音色…</translation>
    </message>
    <message>
        <source>Voice:</source>
        <translation>音色：</translation>
    </message>
    <message>
        <source>(model&apos;s own voice)</source>
        <translation>（模型自带音色）</translation>
    </message>
    <message>
        <source> (not encoded)</source>
        <translation> (未编码)</translation>
    </message>
    <message>
        <source>Type some text first: there is nothing to speak.</source>
        <translation>请先输入文本：没有可朗读的内容。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>ETA —</source>
        <translation>预计剩余 —</translation>
    </message>
    <message>
        <source>ETA ≤ %1 s</source>
        <translation>预计剩余 ≤ %1 秒</translation>
    </message>
    <message>
        <source>%1 frames · %2 s elapsed · %3 · %4× real time</source>
        <translation>%1 帧 · 已用 %2 秒 · %3 · %4× 实时速度</translation>
    </message>
</context>
<context>
    <name>reef::ui::TakesModel</name>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>voice</source>
        <translation>音色</translation>
    </message>
    <message>
        <source>frames</source>
        <translation>帧数</translation>
    </message>
    <message>
        <source>audio s</source>
        <translation>音频秒数</translation>
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
        <translation>停止原因</translation>
    </message>
</context>
<context>
    <name>reef::ui::TakesView</name>
    <message>
        <source>Replay</source>
        <translation>重播</translation>
    </message>
    <message>
        <source>Export take…</source>
        <translation>导出生成结果…</translation>
    </message>
</context>
<context>
    <name>reef::ui::VoiceLibraryDialog</name>
    <message>
        <source>Voice library</source>
        <translation>音色库</translation>
    </message>
    <message>
        <source>Transcript: exactly what is said in the reference clip</source>
        <translation>参考文本：参考音频中所说内容的原文</translation>
    </message>
    <message>
        <source>Add clip…</source>
        <translation>添加音频…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Save transcript</source>
        <translation>保存参考文本</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>参考文本</translation>
    </message>
    <message>
        <source>Reference clips give the model a voice to imitate; double-click a name to rename. Codes are computed once by the codec and cached on disk.</source>
        <translation>参考音频为模型提供要模仿的音色；双击名称可重命名。编码由编解码器计算一次后缓存在磁盘上。</translation>
    </message>
    <message>
        <source>Codes cached: %1 frames (%2 s).</source>
        <translation>已缓存编码：%1 帧（%2 秒）。</translation>
    </message>
    <message>
        <source>Not encoded yet: it is encoded once a model with a codec is loaded.</source>
        <translation>尚未编码：加载带有编解码器的模型后即会编码。</translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation>未添加：%1</translation>
    </message>
    <message>
        <source>Reference clip</source>
        <translation>参考音频</translation>
    </message>
    <message>
        <source>Audio (*.wav *.flac *.ogg *.mp3 *.aiff);;All files (*)</source>
        <translation>音频 (*.wav *.flac *.ogg *.mp3 *.aiff);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Voice name</source>
        <translation>音色名称</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>What is said in the clip:</source>
        <translation>音频中所说的内容：</translation>
    </message>
    <message>
        <source>Cannot add the voice</source>
        <translation>无法添加音色</translation>
    </message>
    <message>
        <source>Delete voice</source>
        <translation>删除音色</translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot; and its cached codes?</source>
        <translation>要删除“%1”及其缓存的编码吗？</translation>
    </message>
    <message>
        <source>Cannot delete the voice</source>
        <translation>无法删除音色</translation>
    </message>
    <message>
        <source>Cannot save the transcript</source>
        <translation>无法保存参考文本</translation>
    </message>
</context>
<context>
    <name>reef::ui::VoiceListModel</name>
    <message>
        <source>
(codes cached: %1 frames)</source>
        <translation>
（已缓存编码：%1 帧）</translation>
    </message>
    <message>
        <source>
(not encoded yet)</source>
        <translation>
（尚未编码）</translation>
    </message>
    <message>
        <source>cannot write the voice&apos;s metadata in %1: %2</source>
        <translation>无法在 %1 中写入音色元数据：%2</translation>
    </message>
    <message>
        <source>reference clip not found: %1</source>
        <translation>未找到参考音频：%1</translation>
    </message>
    <message>
        <source>a voice needs a name</source>
        <translation>音色必须有名称</translation>
    </message>
    <message>
        <source>cannot use %1 as a reference clip: %2</source>
        <translation>无法将 %1 用作参考音频：%2</translation>
    </message>
    <message>
        <source>cannot create the voice folder %1</source>
        <translation>无法创建音色文件夹 %1</translation>
    </message>
    <message>
        <source>cannot copy %1 into the voice library</source>
        <translation>无法将 %1 复制到音色库</translation>
    </message>
    <message>
        <source>no voice at row %1</source>
        <translation>第 %1 行没有音色</translation>
    </message>
    <message>
        <source>cannot delete %1</source>
        <translation>无法删除 %1</translation>
    </message>
    <message>
        <source>voice %1 no longer exists</source>
        <translation>音色 %1 已不存在</translation>
    </message>
</context>
<context>
    <name>reef::ui::WaveformWidget</name>
    <message>
        <source>Click to seek</source>
        <translation>点击跳转</translation>
    </message>
</context>
</TS>
