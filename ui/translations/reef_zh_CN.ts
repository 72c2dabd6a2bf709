<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>BatchExport</name>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Nothing to export: no segment of the project has audio yet.</source>
        <translation>没有可导出的内容：项目中还没有任何片段有音频。</translation>
    </message>
    <message>
        <source>Reef project</source>
        <translation>Reef 项目</translation>
    </message>
    <message>
        <source>segment %1</source>
        <translation>片段 %1</translation>
    </message>
    <message>
        <source>Nothing to export: there are no takes.</source>
        <translation>没有可导出的内容：没有任何生成结果。</translation>
    </message>
</context>
<context>
    <name>BookExport</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot export into %1: the folder does not exist</source>
        <translation>无法导出到 %1：文件夹不存在</translation>
    </message>
    <message>
        <source>Nothing to export: no segment of the project has audio yet.</source>
        <translation>没有可导出的内容：项目中还没有任何片段有音频。</translation>
    </message>
</context>
<context>
    <name>EpubImport</name>
    <message>
        <source>not a zip archive (%1)</source>
        <translation>不是 zip 压缩包（%1）</translation>
    </message>
    <message>
        <source>%1 entries in the archive; at most %2 are read</source>
        <translation>压缩包中有 %1 个条目；最多读取 %2 个</translation>
    </message>
    <message>
        <source>the entry &quot;%1&quot; points outside the book (path traversal)</source>
        <translation>条目“%1”指向书籍之外（路径穿越）</translation>
    </message>
    <message>
        <source>the entry &quot;%1&quot; inflates to %2 MiB from %3 KiB: a zip bomb</source>
        <translation>条目“%1”从 %3 KiB 解压为 %2 MiB：这是 zip 炸弹</translation>
    </message>
    <message>
        <source>the book names &quot;%1&quot;, which is not in the archive</source>
        <translation>书中引用了“%1”，但压缩包中没有它</translation>
    </message>
    <message>
        <source>cannot open &quot;%1&quot;: %2</source>
        <translation>无法打开“%1”：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is damaged: %2</source>
        <translation>“%1”已损坏：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is larger than %2 MiB uncompressed</source>
        <translation>“%1”解压后超过 %2 MiB</translation>
    </message>
    <message>
        <source>the book&apos;s text is larger than %1 MiB uncompressed</source>
        <translation>书籍文本解压后超过 %1 MiB</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>not an EPUB (no META-INF/container.xml)</source>
        <translation>不是 EPUB（没有 META-INF/container.xml）</translation>
    </message>
    <message>
        <source>META-INF/container.xml names no package document</source>
        <translation>META-INF/container.xml 未指定包文档</translation>
    </message>
    <message>
        <source>%1: line %2: %3</source>
        <translation>%1：第 %2 行：%3</translation>
    </message>
    <message>
        <source>the package document %1 has an empty spine: no text to read</source>
        <translation>包文档 %1 的阅读顺序（spine）为空：没有可朗读的文本</translation>
    </message>
    <message>
        <source>the spine names &quot;%1&quot;, which the manifest lacks</source>
        <translation>阅读顺序引用了“%1”，但清单（manifest）中没有</translation>
    </message>
    <message>
        <source>the manifest item &quot;%1&quot; points outside the book (path traversal)</source>
        <translation>清单项“%1”指向书籍之外（路径穿越）</translation>
    </message>
    <message>
        <source>%1 is not well-formed XHTML (%2)</source>
        <translation>%1 不是格式正确的 XHTML（%2）</translation>
    </message>
    <message>
        <source>Chapter %1</source>
        <translation>第 %1 章</translation>
    </message>
    <message>
        <source>the book has no text in its reading order</source>
        <translation>书籍的阅读顺序中没有文本</translation>
    </message>
    <message>
        <source>the file is %1 MiB; an EPUB is read up to %2 MiB</source>
        <translation>文件大小为 %1 MiB；EPUB 最多读取 %2 MiB</translation>
    </message>
</context>
<context>
    <name>ProjectFile</name>
    <message>
        <source>&quot;%1&quot; is missing</source>
        <translation>缺少 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not %2</source>
        <translation>&quot;%1&quot; 不是%2</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is %2 characters long; at most %3 are allowed</source>
        <translation>&quot;%1&quot; 长 %2 个字符；最多允许 %3 个</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is out of range (%3 to %4)</source>
        <translation>&quot;%1&quot; = %2 超出范围（%3 到 %4）</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>the take id &quot;%1&quot; has characters other than A-Z a-z 0-9 _ -</source>
        <translation>生成结果 ID &quot;%1&quot; 含有 A-Z a-z 0-9 _ - 以外的字符</translation>
    </message>
    <message>
        <source>&quot;audio&quot; must name a .wav file in the project&apos;s audio folder, not &quot;%1&quot;</source>
        <translation>&quot;audio&quot; 必须是项目音频文件夹中的 .wav 文件名，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>&quot;created&quot; is not an ISO 8601 date: &quot;%1&quot;</source>
        <translation>&quot;created&quot; 不是 ISO 8601 日期：&quot;%1&quot;</translation>
    </message>
    <message>
        <source>the segment id &quot;%1&quot; has characters other than A-Z a-z 0-9 _ -</source>
        <translation>片段 ID &quot;%1&quot; 含有 A-Z a-z 0-9 _ - 以外的字符</translation>
    </message>
    <message>
        <source>%1 takes; at most %2 are allowed</source>
        <translation>有 %1 个生成结果；最多允许 %2 个</translation>
    </message>
    <message>
        <source>%1, take %2</source>
        <translation>%1，生成结果 %2</translation>
    </message>
    <message>
        <source>is not an object</source>
        <translation>不是对象</translation>
    </message>
    <message>
        <source>%1 segments; at most %2 are allowed</source>
        <translation>有 %1 个片段；最多允许 %2 个</translation>
    </message>
    <message>
        <source>segment %1</source>
        <translation>片段 %1</translation>
    </message>
    <message>
        <source>is not a string</source>
        <translation>不是字符串</translation>
    </message>
    <message>
        <source>is longer than %1 characters</source>
        <translation>超过 %1 个字符</translation>
    </message>
    <message>
        <source>&quot;audioDir&quot; must be the name of a folder beside the project file, not &quot;%1&quot;</source>
        <translation>&quot;audioDir&quot; 必须是与项目文件位于同一位置的文件夹名，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>the id &quot;%1&quot; is used twice</source>
        <translation>ID &quot;%1&quot; 被使用了两次</translation>
    </message>
    <message>
        <source>the take id &quot;%1&quot; is used twice</source>
        <translation>生成结果 ID &quot;%1&quot; 被使用了两次</translation>
    </message>
    <message>
        <source>its takes hold %1 hours of audio; at most %2 can be opened</source>
        <translation>其生成结果共含 %1 小时音频；最多只能打开 %2 小时</translation>
    </message>
    <message>
        <source>segment %1, take %2</source>
        <translation>片段 %1，生成结果 %2</translation>
    </message>
    <message>
        <source>%1 is %2 Hz with %3 channels; takes are mono %4 Hz</source>
        <translation>%1 为 %2 Hz、%3 声道；生成结果应为 %4 Hz 单声道</translation>
    </message>
    <message>
        <source>%1 holds %2 samples; the project expects %3</source>
        <translation>%1 含有 %2 个采样；项目预期为 %3 个</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>the file is %1 MiB; a project file is at most %2 MiB</source>
        <translation>文件大小为 %1 MiB；项目文件最大为 %2 MiB</translation>
    </message>
    <message>
        <source>cannot read it: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>the file grew past %1 MiB while being read</source>
        <translation>读取过程中文件增大到超过 %1 MiB</translation>
    </message>
    <message>
        <source>not valid JSON (%1 at byte %2): the file is damaged or was cut off</source>
        <translation>不是有效的 JSON（第 %2 字节处%1）：文件已损坏或不完整</translation>
    </message>
    <message>
        <source>not a Reef project (the JSON is not an object)</source>
        <translation>不是 Reef 项目（JSON 不是对象）</translation>
    </message>
    <message>
        <source>not a Reef project (&quot;format&quot; is not &quot;reef-project&quot;)</source>
        <translation>不是 Reef 项目（&quot;format&quot; 不是 &quot;reef-project&quot;）</translation>
    </message>
    <message>
        <source>written by a newer Reef (project format version %1); this Reef reads versions 1 to %2</source>
        <translation>由较新版本的 Reef 写入（项目格式版本 %1）；此版本的 Reef 只能读取版本 1 到 %2</translation>
    </message>
    <message>
        <source>unknown project format version %1</source>
        <translation>未知的项目格式版本 %1</translation>
    </message>
    <message>
        <source>cannot save %1: the folder %2 does not exist</source>
        <translation>无法保存 %1：文件夹 %2 不存在</translation>
    </message>
    <message>
        <source>cannot save %1: %2 is in the way of its audio folder</source>
        <translation>无法保存 %1：%2 占用了其音频文件夹的位置</translation>
    </message>
    <message>
        <source>cannot save %1: cannot create the audio folder %2</source>
        <translation>无法保存 %1：无法创建音频文件夹 %2</translation>
    </message>
    <message>
        <source>cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>cannot save %1: the project file would be %2 MiB, more than the %3 MiB Reef opens</source>
        <translation>无法保存 %1：项目文件将达到 %2 MiB，超过了 Reef 可打开的 %3 MiB</translation>
    </message>
    <message>
        <source>sampling: %1</source>
        <translation>采样设置：%1</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>%1 speakers; at most 1000 are allowed</source>
        <translation>%1 个说话人；最多允许 1000 个</translation>
    </message>
    <message>
        <source>the speaker &quot;%1&quot; is not a speaker name</source>
        <translation>“%1”不是有效的说话人名称</translation>
    </message>
    <message>
        <source>the voice of speaker &quot;%1&quot; is not a voice id</source>
        <translation>说话人“%1”的声音不是有效的声音 ID</translation>
    </message>
    <message>
        <source>&quot;codes&quot; must name a .codes file in the project&apos;s audio folder, not &quot;%1&quot;</source>
        <translation>“codes”必须是项目音频文件夹中的 .codes 文件，而不是“%1”</translation>
    </message>
    <message>
        <source>&quot;speed&quot; = %1 is out of range (0.5 to 2, or 0 for the project&apos;s)</source>
        <translation>“speed” = %1 超出范围（0.5 到 2，或 0 表示使用项目设置）</translation>
    </message>
</context>
<context>
    <name>SamplingJson</name>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>&quot;%1&quot; 不是数字</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is outside the allowed range %3%4</source>
        <translation>&quot;%1&quot; = %2 超出允许范围 %3%4</translation>
    </message>
    <message>
        <source> (whole numbers)</source>
        <translation>（须为整数）</translation>
    </message>
    <message>
        <source>&quot;seed&quot; = &quot;%1&quot; is not a whole number from 0 to %2</source>
        <translation>&quot;seed&quot; = &quot;%1&quot; 不是 0 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>&quot;seed&quot; = %1 is not a whole number a JSON number holds exactly (0 to 2^53; larger seeds are written as strings)</source>
        <translation>&quot;seed&quot; = %1 不是 JSON 数字能精确表示的整数（0 到 2^53；更大的种子以字符串写入）</translation>
    </message>
    <message>
        <source>&quot;seed&quot; is not a number</source>
        <translation>&quot;seed&quot; 不是数字</translation>
    </message>
</context>
<context>
    <name>SamplingSettings</name>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>0 = greedy</source>
        <translation>0 = 贪心解码</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>nucleus: the smallest set of tokens holding this probability</source>
        <translation>核采样：累计概率达到此值的最小词元集合</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>the k most likely tokens (0 = off, 1 = greedy)</source>
        <translation>概率最高的 k 个词元（0 = 关闭，1 = 贪心）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>S1-mini: divides the logits of recently used tokens (1 = off)</source>
        <translation>S1-mini：降低最近使用过的词元的 logits（1 = 关闭）</translation>
    </message>
    <message>
        <source>Max new frames</source>
        <translation>最大新帧数</translation>
    </message>
    <message>
        <source>frames per text batch (21.5 frames = 1 s; 0 = up to the model&apos;s limit)</source>
        <translation>每个文本批次的帧数（21.5 帧 = 1 秒；0 = 直到模型上限）</translation>
    </message>
    <message>
        <source>model limit</source>
        <translation>模型上限</translation>
    </message>
    <message>
        <source>Chunk length</source>
        <translation>分块长度</translation>
    </message>
    <message>
        <source>UTF-8 bytes of speaker turns per text batch (0 = no length limit)</source>
        <translation>每个文本批次中说话人轮次的 UTF-8 字节数（0 = 不限长度）</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
</context>
<context>
    <name>TextImport</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>the file does not exist.</source>
        <translation>文件不存在。</translation>
    </message>
    <message>
        <source>it is not a regular file.</source>
        <translation>这不是常规文件。</translation>
    </message>
    <message>
        <source>it is %1 MB; Reef opens text files up to %2 MB (split it into chapters).</source>
        <translation>文件大小为 %1 MB；Reef 只能打开不超过 %2 MB 的文本文件（请将其拆分为多个章节）。</translation>
    </message>
    <message>
        <source>it is not a text file (it contains binary data).</source>
        <translation>这不是文本文件（包含二进制数据）。</translation>
    </message>
    <message>
        <source>it is not UTF-8 text. Save it as UTF-8 and open it again.</source>
        <translation>这不是 UTF-8 文本。请以 UTF-8 编码保存后重新打开。</translation>
    </message>
    <message>
        <source>it holds no text.</source>
        <translation>文件不含任何文本。</translation>
    </message>
</context>
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
    <name>reef::ui::AppVersions</name>
    <message>
        <source>not compiled in</source>
        <translation>未编译支持</translation>
    </message>
    <message>
        <source>available, CUDA %1</source>
        <translation>可用，CUDA %1</translation>
    </message>
    <message>
        <source>compiled in, no GPU visible</source>
        <translation>已编译支持，但未检测到 GPU</translation>
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
    <name>reef::ui::BatchTableModel</name>
    <message>
        <source>ran</source>
        <translation>已运行</translation>
    </message>
    <message>
        <source>ran (CPU kernels %1)</source>
        <translation>已运行（CPU 内核 %1）</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>frames/s, all</source>
        <translation>帧/秒（总计）</translation>
    </message>
    <message>
        <source>frames/s, each</source>
        <translation>帧/秒（每个序列）</translation>
    </message>
    <message>
        <source>vs batch 1</source>
        <translation>相对批大小 1</translation>
    </message>
    <message>
        <source>batch frame (ms)</source>
        <translation>批次帧 (ms)</translation>
    </message>
    <message>
        <source>roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
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
        <source>%1 of the %2 frames/s that memory bandwidth allows (%3 MB per frame, read at %4 GB/s, the fast stack&apos;s re-reads at %5 GB/s); %6 if every byte came from memory</source>
        <translation>达到内存带宽上限 %2 frames/s 的 %1（每帧 %3 MB，读取带宽 %4 GB/s，快速栈的重复读取 %5 GB/s）；若每个字节都来自内存则为 %6</translation>
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
        <source>listen</source>
        <translation>试听</translation>
    </message>
    <message>
        <source>(within tolerance)</source>
        <translation>（在容差内）</translation>
    </message>
    <message>
        <source>(OVER tolerance)</source>
        <translation>（超出容差）</translation>
    </message>
    <message>
        <source>warm
frames/s</source>
        <translation>热态
帧/秒</translation>
    </message>
    <message>
        <source>% of
roofline</source>
        <translation>占屋顶线
的 %</translation>
    </message>
    <message>
        <source>cold first
frame (ms)</source>
        <translation>冷启动首帧
(毫秒)</translation>
    </message>
    <message>
        <source>first audio
(ms)</source>
        <translation>首段音频
(毫秒)</translation>
    </message>
    <message>
        <source>peak
memory</source>
        <translation>峰值
内存</translation>
    </message>
    <message>
        <source>backend per
call site</source>
        <translation>各调用点
的后端</translation>
    </message>
    <message>
        <source>max |Δ logit|
(tolerance)</source>
        <translation>最大 |Δ logit|
(容差)</translation>
    </message>
    <message>
        <source>greedy
agreement</source>
        <translation>贪心
一致率</translation>
    </message>
    <message>
        <source>The largest difference of any logit from the reference arm&apos;s, against the tolerance of the arm&apos;s precision: within it, the arm computes what the reference computes. Greedy agreement beside it can still drop: random weights make near-ties that any rounding flips.</source>
        <translation>任一 logit 与参考臂之差的最大值，按该臂精度的容差衡量：在容差内，说明该臂算出的与参考一致。旁边的贪心一致率仍可能下降：随机权重会产生近乎相等的候选，任何舍入都可能让它们换位。</translation>
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
    <message>
        <source>Batched decode throughput</source>
        <translation>批量解码吞吐量</translation>
    </message>
    <message>
        <source>batch sizes, e.g. 1,4,8</source>
        <translation>批大小，例如 1,4,8</translation>
    </message>
    <message>
        <source>Sequences decoding together. For each size, the reference arm decodes that many copies of the prompt in one batch; the table below shows frames/s of all of them and of each. Empty = no batch points.</source>
        <translation>同时解码的序列数。对每个大小，基准配置在一个批次中解码相应数量的提示；下表显示全部序列和每个序列的帧/秒。留空 = 不测批量。</translation>
    </message>
    <message>
        <source>Batch sizes</source>
        <translation>批大小</translation>
    </message>
</context>
<context>
    <name>reef::ui::DictionaryDialog</name>
    <message>
        <source>Pronunciation dictionary</source>
        <translation>发音词典</translation>
    </message>
    <message>
        <source>Whole words in your text are replaced before the model reads it: write a word the way it should sound (&quot;SQL&quot; → &quot;sequel&quot;). Chinese and Japanese words match inside a sentence too.</source>
        <translation>在模型读取文本之前，文本中的整词会被替换：按照应有的读音写出词语（“SQL” → “sequel”）。中文和日文词语在句子中间也能匹配。</translation>
    </message>
    <message>
        <source>Replacements</source>
        <translation>替换列表</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>Match &amp;case</source>
        <translation>区分大小写(&amp;C)</translation>
    </message>
    <message>
        <source>Type a sentence to try the dictionary</source>
        <translation>输入一句话来试用词典</translation>
    </message>
    <message>
        <source>&amp;Try:</source>
        <translation>试用(&amp;T)：</translation>
    </message>
    <message>
        <source>Spoken as:</source>
        <translation>读作：</translation>
    </message>
    <message>
        <source>word</source>
        <translation>词语</translation>
    </message>
    <message>
        <source>word %1</source>
        <translation>词语 %1</translation>
    </message>
</context>
<context>
    <name>reef::ui::EngineController</name>
    <message>
        <source>cancelled: a model load was requested</source>
        <translation>已取消：收到了加载模型的请求</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <source>loading</source>
        <translation>正在加载</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>generating</source>
        <translation>正在生成</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>benchmarking</source>
        <translation>正在基准测试</translation>
    </message>
    <message>
        <source>quantizing</source>
        <translation>正在量化</translation>
    </message>
</context>
<context>
    <name>reef::ui::FileExport</name>
    <message>
        <source>WAV, 16-bit PCM</source>
        <translation>WAV，16 位 PCM</translation>
    </message>
    <message>
        <source>WAV, 32-bit float</source>
        <translation>WAV，32 位浮点</translation>
    </message>
    <message>
        <source>FLAC</source>
        <translation>FLAC</translation>
    </message>
    <message>
        <source>Ogg Vorbis</source>
        <translation>Ogg Vorbis</translation>
    </message>
    <message>
        <source>MP3</source>
        <translation>MP3</translation>
    </message>
    <message>
        <source>nothing to export to %1: the take has no audio</source>
        <translation>没有可导出到 %1 的内容：该生成结果没有音频</translation>
    </message>
    <message>
        <source>nothing to export: the take has no audio</source>
        <translation>没有可导出的内容：该生成结果没有音频</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
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
        <source>Open a fish-speech model folder</source>
        <translation>打开 fish-speech 模型文件夹</translation>
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
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Export audio</source>
        <translation>导出音频</translation>
    </message>
    <message numerus="yes">
        <source>Opened %1 (%n character(s))</source>
        <translation>
            <numerusform>已打开 %1（%n 个字符）</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a text file</source>
        <translation>打开文本文件</translation>
    </message>
    <message>
        <source>Text (*.txt *.md *.markdown *.text);;All files (*)</source>
        <translation>文本 (*.txt *.md *.markdown *.text);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the text</source>
        <translation>无法打开文本</translation>
    </message>
    <message>
        <source>New voice from %1</source>
        <translation>从 %1 新建音色</translation>
    </message>
    <message>
        <source>Voice name:</source>
        <translation>音色名称：</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>参考文本</translation>
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
        <source>Added the voice &quot;%1&quot;; pick it under Voice to speak with it.</source>
        <translation>已添加音色“%1”；在“音色”中选择它即可用该音色朗读。</translation>
    </message>
    <message>
        <source>&amp;New project</source>
        <translation>新建项目(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save project</source>
        <translation>保存项目(&amp;S)</translation>
    </message>
    <message>
        <source>Save project &amp;as…</source>
        <translation>项目另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;text file…</source>
        <translation>打开文本文件(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Export audio…</source>
        <translation>导出音频(&amp;E)…</translation>
    </message>
    <message>
        <source>Open &amp;model folder…</source>
        <translation>打开模型文件夹(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Pronunciation &amp;dictionary…</source>
        <translation>发音词典(&amp;D)…</translation>
    </message>
    <message>
        <source>Insert &amp;speaker tag</source>
        <translation>插入说话人标签(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Next speaker</source>
        <translation>下一个说话人(&amp;N)</translation>
    </message>
    <message>
        <source>Speaker &amp;%1</source>
        <translation>说话人 &amp;%1</translation>
    </message>
    <message>
        <source>&amp;Speech</source>
        <translation>语音(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Generate &amp;missing segments</source>
        <translation>生成缺少音频的片段(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Re-generate segment</source>
        <translation>重新生成片段(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel the whole queue</source>
        <translation>取消整个队列(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Play / pause</source>
        <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Unsaved project</source>
        <translation>项目未保存</translation>
    </message>
    <message>
        <source>The project “%1” has changes that are not saved. Save them first?</source>
        <translation>项目“%1”有未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>未命名项目</translation>
    </message>
    <message>
        <source>Open a project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Reef projects (*.reefproj);;All files (*)</source>
        <translation>Reef 项目 (*.reefproj);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>Save the project</source>
        <translation>保存项目</translation>
    </message>
    <message>
        <source>Reef projects (*.reefproj)</source>
        <translation>Reef 项目 (*.reefproj)</translation>
    </message>
    <message>
        <source>Cannot save the project</source>
        <translation>无法保存项目</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Export the project</source>
        <translation>导出项目</translation>
    </message>
    <message>
        <source>Unknown audio format for %1.</source>
        <translation>%1 的音频格式未知。</translation>
    </message>
    <message>
        <source>Export each segment into a folder</source>
        <translation>将每个片段导出到文件夹</translation>
    </message>
    <message>
        <source>Export segments</source>
        <translation>导出片段</translation>
    </message>
    <message>
        <source>Export every take into a folder</source>
        <translation>将每个生成结果导出到文件夹</translation>
    </message>
    <message>
        <source>Export all takes</source>
        <translation>导出所有生成结果</translation>
    </message>
    <message>
        <source>&lt;b&gt;The take history could not be read.&lt;/b&gt; %1&lt;br&gt;New takes are saved; the old index is kept aside, not deleted.</source>
        <translation>&lt;b&gt;无法读取生成结果历史。&lt;/b&gt;%1&lt;br&gt;新的生成结果会正常保存；旧的索引已另行保留，不会被删除。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not connect to the server.&lt;/b&gt; %1%2&lt;br&gt;Check its address, protocol and key in Settings → Speech from a server, or untick it to use this computer.</source>
        <translation>&lt;b&gt;无法连接到服务器。&lt;/b&gt;%1%2&lt;br&gt;请在“设置 → 在服务器上合成语音”中检查地址、协议和密钥，或取消勾选以使用本机。</translation>
    </message>
    <message>
        <source>Speech from %1</source>
        <translation>语音来自 %1</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>已连接到 %1</translation>
    </message>
    <message>
        <source>%1 items decoding together (batch size: Settings → Engine)</source>
        <translation>%1 个项目正在一起解码（批大小：设置 → 引擎）</translation>
    </message>
    <message>
        <source>%1 items in this batch: %2 decode together, the others wait for a free slot (batch size: Settings → Engine)</source>
        <translation>本批共 %1 项：%2 项同时解码，其余项等待空位（批大小：设置 → 引擎）</translation>
    </message>
    <message>
        <source>%1 items in this batch: as many decode together as memory allows (batch size: Settings → Engine)</source>
        <translation>本批共 %1 项：内存允许多少项就同时解码多少项（批大小：设置 → 引擎）</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model is configured&lt;/b&gt; and Reef could not create its demo model: %1&lt;br&gt;Open a fish-speech model folder (File → Open model folder…).</source>
        <translation>&lt;b&gt;尚未配置模型&lt;/b&gt;，Reef 也无法创建演示模型：%1&lt;br&gt;请打开 fish-speech 模型文件夹（文件 → 打开模型文件夹…）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Demo model loaded.&lt;/b&gt; &quot;%1&quot; has &lt;b&gt;random weights&lt;/b&gt;: it runs the whole pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or S1-mini model and open its folder (File → Open model folder…).</source>
        <translation>&lt;b&gt;已加载演示模型。&lt;/b&gt;“%1”使用&lt;b&gt;随机权重&lt;/b&gt;：它会跑完整个流程，但生成的音频是噪声。要得到真实语音，请下载 fish-speech S2-Pro 或 S1-mini 模型并打开其文件夹（文件 → 打开模型文件夹…）。</translation>
    </message>
    <message>
        <source>%1 weights, %2 GB in memory</source>
        <translation>%1 权重，占用内存 %2 GB</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model folder to quantize.&lt;/b&gt; Pick one in Settings → Model first.</source>
        <translation>&lt;b&gt;没有可量化的模型文件夹。&lt;/b&gt;请先在“设置 → 模型”中选择一个。</translation>
    </message>
    <message>
        <source>A model is being quantized</source>
        <translation>正在量化模型</translation>
    </message>
    <message>
        <source>Loading the quantized copy %1</source>
        <translation>正在加载量化副本 %1</translation>
    </message>
    <message>
        <source>Quanti&amp;ze model (int8/int4)…</source>
        <translation>量化模型(&amp;Z) (int8/int4)…</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1: %n chapter(s)</source>
        <translation>
            <numerusform>已导入 %1：%n 章</numerusform>
        </translation>
    </message>
    <message>
        <source>Import an EPUB book</source>
        <translation>导入 EPUB 书籍</translation>
    </message>
    <message>
        <source>EPUB books (*.epub);;All files (*)</source>
        <translation>EPUB 书籍 (*.epub);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot import the book</source>
        <translation>无法导入该书</translation>
    </message>
    <message>
        <source>&amp;Import EPUB as a project…</source>
        <translation>将 EPUB 导入为项目(&amp;I)…</translation>
    </message>
    <message>
        <source>Nothing to re-decode: load a model on this computer, and pick a take that kept its codes</source>
        <translation>没有可重新解码的内容：请在本机加载模型，并选择保存了编码的录音</translation>
    </message>
    <message>
        <source>codec from %1</source>
        <translation>编解码器来自 %1</translation>
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
    <message>
        <source>Frames per second and memory over time</source>
        <translation>每秒帧数与内存随时间的变化</translation>
    </message>
    <message>
        <source>frames/s per item</source>
        <translation>每个项目的帧/秒</translation>
    </message>
    <message>
        <source>frames/s, all items</source>
        <translation>帧/秒（全部项目）</translation>
    </message>
    <message>
        <source>attention: not reported (speech from a server)</source>
        <translation>注意力：未报告（语音来自服务器）</translation>
    </message>
    <message>
        <source> · decode threads: %1 of %2</source>
        <translation> · 解码线程：%1 / %2</translation>
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
    <message>
        <source>frames/s per item</source>
        <translation>每个项目的帧/秒</translation>
    </message>
</context>
<context>
    <name>reef::ui::PlaybackSink</name>
    <message>
        <source>this build has no audio player</source>
        <translation>此版本不含音频播放器</translation>
    </message>
</context>
<context>
    <name>reef::ui::PlayerBar</name>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
</context>
<context>
    <name>reef::ui::ProductionDialog</name>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Podcast (−16 LUFS, −1 dBTP)</source>
        <translation>播客（−16 LUFS，−1 dBTP）</translation>
    </message>
    <message>
        <source>Audiobook (−18 LUFS, −3 dBTP)</source>
        <translation>有声书（−18 LUFS，−3 dBTP）</translation>
    </message>
    <message>
        <source>Audiobook, quieter (−20 LUFS, −3 dBTP)</source>
        <translation>有声书，较安静（−20 LUFS，−3 dBTP）</translation>
    </message>
    <message>
        <source>Broadcast, EBU R128 (−23 LUFS, −1 dBTP)</source>
        <translation>广播，EBU R128（−23 LUFS，−1 dBTP）</translation>
    </message>
    <message>
        <source>Production</source>
        <translation>制作</translation>
    </message>
    <message>
        <source>Cast</source>
        <translation>角色分配</translation>
    </message>
    <message>
        <source>The text names no speakers. Start a speaker&apos;s lines with a tag such as &lt;|speaker:0|&gt; to give each speaker a voice.</source>
        <translation>文本中没有指定说话人。在说话人的台词前加上 &lt;|speaker:0|&gt; 之类的标签，即可为每位说话人分配声音。</translation>
    </message>
    <message>
        <source>(project default)</source>
        <translation>（项目默认）</translation>
    </message>
    <message>
        <source>Speaker %1:</source>
        <translation>说话人 %1：</translation>
    </message>
    <message>
        <source>Pauses and pace</source>
        <translation>停顿与语速</translation>
    </message>
    <message>
        <source>After a &amp;sentence:</source>
        <translation>句子之后(&amp;S)：</translation>
    </message>
    <message>
        <source>After a c&amp;lause (, ; :):</source>
        <translation>分句之后（, ; :）(&amp;L)：</translation>
    </message>
    <message>
        <source>After a &amp;paragraph:</source>
        <translation>段落之后(&amp;P)：</translation>
    </message>
    <message>
        <source>Before a c&amp;hapter:</source>
        <translation>章节之前(&amp;H)：</translation>
    </message>
    <message>
        <source>Inline: &lt;tt&gt;[pause 1.5s]&lt;/tt&gt; or &lt;tt&gt;[pause 500ms]&lt;/tt&gt; in a segment sets that pause exactly (the model does not read it).</source>
        <translation>行内：在片段中写 &lt;tt&gt;[pause 1.5s]&lt;/tt&gt; 或 &lt;tt&gt;[pause 500ms]&lt;/tt&gt; 可精确设置该停顿（模型不会朗读它）。</translation>
    </message>
    <message>
        <source>Tempo without a change of pitch (Rubber Band), after synthesis</source>
        <translation>合成后改变速度而不改变音高（Rubber Band）</translation>
    </message>
    <message>
        <source>P&amp;ace:</source>
        <translation>语速(&amp;A)：</translation>
    </message>
    <message>
        <source>Trim each take&apos;s own silence first</source>
        <translation>先裁掉每个录音自身的静音</translation>
    </message>
    <message>
        <source>Loudness (EBU R128)</source>
        <translation>响度（EBU R128）</translation>
    </message>
    <message>
        <source>&amp;Normalize the export</source>
        <translation>标准化导出响度(&amp;N)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source> LUFS</source>
        <translation> LUFS</translation>
    </message>
    <message>
        <source> dBTP</source>
        <translation> dBTP</translation>
    </message>
    <message>
        <source>P&amp;reset:</source>
        <translation>预设(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>目标(&amp;T)：</translation>
    </message>
    <message>
        <source>True-peak &amp;ceiling:</source>
        <translation>真峰值上限(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Measure</source>
        <translation>测量(&amp;M)</translation>
    </message>
    <message>
        <source>Not measured yet</source>
        <translation>尚未测量</translation>
    </message>
    <message>
        <source>Export the book</source>
        <translation>导出书籍</translation>
    </message>
    <message>
        <source>One file per chapter too</source>
        <translation>同时每章一个文件</translation>
    </message>
    <message>
        <source>Subtitles (SRT)</source>
        <translation>字幕（SRT）</translation>
    </message>
    <message>
        <source>Subtitles (WebVTT)</source>
        <translation>字幕（WebVTT）</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>Nothing to measure: no segment has audio yet.</source>
        <translation>没有可测量的内容：还没有任何片段有音频。</translation>
    </message>
    <message numerus="yes">
        <source>%1 min · %2 LUFS integrated · true peak %3 dBTP · %n chapter(s)</source>
        <translation>
            <numerusform>%1 分钟 · 综合响度 %2 LUFS · 真峰值 %3 dBTP · %n 章</numerusform>
        </translation>
    </message>
    <message>
        <source>Export the book into a folder</source>
        <translation>将书籍导出到文件夹</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>已导出</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) into %1.</source>
        <translation>
            <numerusform>已将 %n 个文件写入 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;Name: text&quot; lines name speakers too</source>
        <translation>“姓名: 文本”形式的行也指定说话人</translation>
    </message>
    <message>
        <source>A line that starts with a capitalised name and a colon is that speaker&apos;s; the name is not read</source>
        <translation>以首字母大写的姓名加冒号开头的行属于该说话人；姓名不会被朗读</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>Play the book as these settings make it</source>
        <translation>按当前设置播放整本书</translation>
    </message>
    <message>
        <source>FLAC and MP3 carry chapter marks (Vorbis CHAPTER comments, ID3 CHAP frames); WAV and Ogg have none: export one file per chapter for them</source>
        <translation>FLAC 和 MP3 带有章节标记（Vorbis CHAPTER 注释、ID3 CHAP 帧）；WAV 和 Ogg 没有：请为它们按章节分别导出文件</translation>
    </message>
    <message>
        <source>Several speakers in one segment speak together (S2 models)</source>
        <translation>同一分段中的多个说话人一起朗读（S2 模型）</translation>
    </message>
    <message>
        <source>A segment with several &lt;|speaker:N|&gt; tags becomes one request with each speaker&apos;s voice, as fish-speech speaks a dialogue; off, or with an S1 model, it speaks with the voice of the speaker it starts with</source>
        <translation>含多个 &lt;|speaker:N|&gt; 标签的分段作为一个请求，使用每个说话人的声音作为参考（fish-speech 朗读对话的方式）；关闭时或使用 S1 模型时，以分段开头说话人的声音朗读</translation>
    </message>
</context>
<context>
    <name>reef::ui::ProjectModel</name>
    <message>
        <source>not generated yet</source>
        <translation>尚未生成</translation>
    </message>
    <message>
        <source>the text changed since take %1 was made</source>
        <translation>生成结果 %1 产生后文本已更改</translation>
    </message>
    <message>
        <source>take %1 of %2</source>
        <translation>生成结果 %1/%2</translation>
    </message>
    <message>
        <source>the speaker&apos;s voice changed since take %1 was made</source>
        <translation>生成录音 %1 之后，说话人的声音已更改</translation>
    </message>
</context>
<context>
    <name>reef::ui::ProjectView</name>
    <message>
        <source>no audio yet</source>
        <translation>尚无音频</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message numerus="yes">
        <source>%n take(s)</source>
        <translation>
            <numerusform>%n 个生成结果</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;A project is a long text in segments.&lt;/b&gt; Paste or open a chapter, split it into sentences or paragraphs, generate them all, then re-generate just the ones you want different. Projects are saved with their audio (File → Save project).</source>
        <translation>&lt;b&gt;项目是分成片段的长文本。&lt;/b&gt;粘贴或打开一个章节，将其拆分为句子或段落，全部生成，然后只重新生成你想改变的片段。项目会连同音频一起保存（“文件 → 保存项目”）。</translation>
    </message>
    <message>
        <source>Text to split into segments</source>
        <translation>要拆分为片段的文本</translation>
    </message>
    <message>
        <source>Paste a long text here, or use File → Open text file…</source>
        <translation>在此粘贴长文本，或使用“文件 → 打开文本文件…”</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Paragraphs</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>S&amp;plit into segments</source>
        <translation>拆分为片段(&amp;P)</translation>
    </message>
    <message>
        <source>Split &amp;at:</source>
        <translation>拆分单位(&amp;A)：</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>未命名项目</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>Segments</source>
        <translation>片段</translation>
    </message>
    <message>
        <source>&amp;Generate missing</source>
        <translation>生成缺少的(&amp;G)</translation>
    </message>
    <message>
        <source>Queue every segment that has no audio or was edited since its take</source>
        <translation>将所有没有音频或生成后已编辑的片段加入队列</translation>
    </message>
    <message>
        <source>Play &amp;project</source>
        <translation>播放项目(&amp;P)</translation>
    </message>
    <message>
        <source>E&amp;xport project…</source>
        <translation>导出项目(&amp;X)…</translation>
    </message>
    <message>
        <source>Export s&amp;egments…</source>
        <translation>导出片段(&amp;E)…</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>&amp;Crossfade:</source>
        <translation>交叉淡化(&amp;C)：</translation>
    </message>
    <message>
        <source>Segment text</source>
        <translation>片段文本</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>音色(&amp;V)：</translation>
    </message>
    <message>
        <source>Ta&amp;ke:</source>
        <translation>生成结果(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Re-generate</source>
        <translation>重新生成(&amp;R)</translation>
    </message>
    <message>
        <source>P&amp;lay segment</source>
        <translation>播放片段(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Split at cursor</source>
        <translation>在光标处拆分(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Merge with next</source>
        <translation>与下一片段合并(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Insert after</source>
        <translation>在后面插入(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>New segment.</source>
        <translation>新片段。</translation>
    </message>
    <message numerus="yes">
        <source>%n segment(s)</source>
        <translation>
            <numerusform>%n 个片段</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 to generate</source>
        <translation>%1 个待生成</translation>
    </message>
    <message>
        <source>%1 s of audio</source>
        <translation>%1 秒音频</translation>
    </message>
    <message>
        <source>(project default)</source>
        <translation>（项目默认）</translation>
    </message>
    <message>
        <source>no takes yet</source>
        <translation>尚无生成结果</translation>
    </message>
    <message>
        <source>Pin current settings</source>
        <translation>固定当前设置</translation>
    </message>
    <message>
        <source>This segment keeps the current sampling settings and seed, whatever they become later</source>
        <translation>此片段保留当前的采样设置和种子，之后设置如何变化都不受影响</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <source>Settings:</source>
        <translation>设置：</translation>
    </message>
    <message>
        <source>the current ones (Settings → Sampling)</source>
        <translation>当前设置（设置 → 采样）</translation>
    </message>
    <message>
        <source>pinned: temperature %1 · top-p %2 · top-k %3 · seed %4</source>
        <translation>已固定：温度 %1 · top-p %2 · top-k %3 · 种子 %4</translation>
    </message>
    <message>
        <source>Made with %1</source>
        <translation>由 %1 生成</translation>
    </message>
    <message>
        <source>changed since its take</source>
        <translation>录音后已更改</translation>
    </message>
    <message>
        <source>speaker %1</source>
        <translation>说话人 %1</translation>
    </message>
    <message>
        <source>Pr&amp;oduction…</source>
        <translation>制作(&amp;O)…</translation>
    </message>
    <message>
        <source>Cast, pauses, pace and loudness; export the book with chapters and subtitles</source>
        <translation>角色分配、停顿、语速与响度；导出带章节和字幕的书籍</translation>
    </message>
    <message>
        <source>no new chapter here</source>
        <translation>此处不开始新章节</translation>
    </message>
    <message>
        <source>A chapter with this title starts at this segment (chapter marks, one file per chapter)</source>
        <translation>以此标题命名的章节从本片段开始（章节标记、每章一个文件）</translation>
    </message>
    <message>
        <source>the project&apos;s</source>
        <translation>使用项目设置</translation>
    </message>
    <message>
        <source>C&amp;hapter:</source>
        <translation>章节(&amp;H)：</translation>
    </message>
    <message>
        <source>Pa&amp;ce:</source>
        <translation>语速(&amp;C)：</translation>
    </message>
    <message>
        <source>Take %1 · %2 · %3 s · %4</source>
        <translation>录音 %1 · %2 · %3 秒 · %4</translation>
    </message>
    <message>
        <source>%1 LUFS</source>
        <translation>%1 LUFS</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>无声</translation>
    </message>
    <message>
        <source>another model than the one loaded now</source>
        <translation>由与当前加载模型不同的模型生成</translation>
    </message>
    <message>
        <source>Re-&amp;decode</source>
        <translation>重新解码(&amp;D)</translation>
    </message>
    <message>
        <source>Decode this take&apos;s stored codes again with the loaded model (e.g. another precision): a new take, the same speech, nothing sampled again</source>
        <translation>用已加载的模型（例如另一种精度）重新解码此录音保存的编码：生成新录音，语音相同，不会重新采样</translation>
    </message>
</context>
<context>
    <name>reef::ui::PronunciationDictionary</name>
    <message>
        <source>cannot read the pronunciation dictionary %1: %2</source>
        <translation>无法读取发音词典 %1：%2</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>词语</translation>
    </message>
    <message>
        <source>Replacement</source>
        <translation>替换为</translation>
    </message>
    <message>
        <source>the file is %1 MiB; a dictionary is at most %2 MiB</source>
        <translation>文件大小为 %1 MiB；词典最大为 %2 MiB</translation>
    </message>
    <message>
        <source>not valid JSON (%1 at byte %2)</source>
        <translation>不是有效的 JSON（第 %2 字节处%1）</translation>
    </message>
    <message>
        <source>not a Reef pronunciation dictionary (no &quot;format&quot;: &quot;%1&quot;)</source>
        <translation>不是 Reef 发音词典（没有 &quot;format&quot;: &quot;%1&quot;）</translation>
    </message>
    <message>
        <source>missing or invalid &quot;version&quot;</source>
        <translation>&quot;version&quot; 缺失或无效</translation>
    </message>
    <message>
        <source>written by a newer Reef (format version %1; this one reads up to %2)</source>
        <translation>由较新版本的 Reef 写入（格式版本 %1；此版本最高只能读取 %2）</translation>
    </message>
    <message>
        <source>&quot;caseSensitive&quot; must be true or false</source>
        <translation>&quot;caseSensitive&quot; 必须为 true 或 false</translation>
    </message>
    <message>
        <source>&quot;entries&quot; must be a list</source>
        <translation>&quot;entries&quot; 必须是列表</translation>
    </message>
    <message>
        <source>entry %1 needs a non-empty &quot;word&quot; and a &quot;replacement&quot; text</source>
        <translation>条目 %1 需要非空的 &quot;word&quot; 和 &quot;replacement&quot; 文本</translation>
    </message>
    <message>
        <source>entry %1: the word &quot;%2&quot; is already listed</source>
        <translation>条目 %1：词语 &quot;%2&quot; 已在列表中</translation>
    </message>
    <message>
        <source>cannot save the pronunciation dictionary to %1: %2</source>
        <translation>无法将发音词典保存到 %1：%2</translation>
    </message>
</context>
<context>
    <name>reef::ui::QuantizeDialog</name>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>源：</translation>
    </message>
    <message>
        <source>New folder:</source>
        <translation>新文件夹：</translation>
    </message>
    <message>
        <source>Quantize</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Use the int8 copy</source>
        <translation>使用 int8 副本</translation>
    </message>
    <message>
        <source>Select the new folder as the model and load it</source>
        <translation>将新文件夹选为模型并加载</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The copy needs a folder of its own: the source stays as it is.</source>
        <translation>副本需要单独的文件夹：源文件夹保持不变。</translation>
    </message>
    <message>
        <source>The engine is busy (%1): quantize when it is done.</source>
        <translation>引擎正忙（%1）：请在其完成后再量化。</translation>
    </message>
    <message>
        <source>Reading the weights…</source>
        <translation>正在读取权重…</translation>
    </message>
    <message>
        <source>Quantizing: tensor %1 of %2</source>
        <translation>正在量化：第 %1 个张量，共 %2 个</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Quantize the model (int8/int4)</source>
        <translation>量化模型 (int8/int4)</translation>
    </message>
    <message>
        <source>Writes a copy of &lt;b&gt;%1&lt;/b&gt; whose linear layers are stored in fewer bits, as fish-speech&apos;s &lt;tt&gt;tools/llama/quantize.py&lt;/tt&gt; does: int8 with one scale per row (&lt;tt&gt;--mode int8&lt;/tt&gt;) or int4 with a scale and zero per group of weights (&lt;tt&gt;--mode int4&lt;/tt&gt;). The model folder itself is not changed.</source>
        <translation>写出 &lt;b&gt;%1&lt;/b&gt; 的副本，其线性层以更少的位数存储，与 fish-speech 的 &lt;tt&gt;tools/llama/quantize.py&lt;/tt&gt; 相同：int8 每行一个缩放 (&lt;tt&gt;--mode int8&lt;/tt&gt;)，int4 每组权重一个缩放和零点 (&lt;tt&gt;--mode int4&lt;/tt&gt;)。原模型文件夹不会改变。</translation>
    </message>
    <message>
        <source>int8</source>
        <translation>int8</translation>
    </message>
    <message>
        <source>int4</source>
        <translation>int4</translation>
    </message>
    <message>
        <source>int8: about half of bf16&apos;s memory, the closest to bf16. int4: about a quarter, a bit further from bf16.</source>
        <translation>int8：约为 bf16 一半的内存，最接近 bf16。int4：约四分之一，与 bf16 稍有差距。</translation>
    </message>
    <message>
        <source>%1 weights</source>
        <translation>%1 权重</translation>
    </message>
    <message>
        <source>int4 only: how many weights share one scale and zero. A smaller group is closer to bf16 and slightly larger; it must divide every layer&apos;s inputs (32 does for fish-speech&apos;s S1 and S2 models).</source>
        <translation>仅限 int4：多少个权重共享一个缩放和零点。组越小越接近 bf16，体积也稍大；它必须整除每一层的输入数（fish-speech 的 S1 和 S2 模型可用 32）。</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Group size:</source>
        <translation>组大小：</translation>
    </message>
    <message>
        <source>int4: about a quarter of bf16&apos;s memory, a bit further from bf16; a smaller group is closer to bf16 and slightly larger.</source>
        <translation>int4：约为 bf16 四分之一的内存，与 bf16 稍有差距；组越小越接近 bf16，体积也稍大。</translation>
    </message>
    <message>
        <source>int8: about half of bf16&apos;s memory, the closest to bf16.</source>
        <translation>int8：约为 bf16 一半的内存，最接近 bf16。</translation>
    </message>
    <message>
        <source>New folder for the quantized copy</source>
        <translation>量化副本的新文件夹</translation>
    </message>
    <message>
        <source>Name the new folder for the quantized copy.</source>
        <translation>请为量化副本的新文件夹命名。</translation>
    </message>
    <message>
        <source>Written to %1 (%2): the text2semantic weights went from %3 to %4.</source>
        <translation>已写入 %1 (%2)：text2semantic 权重从 %3 变为 %4。</translation>
    </message>
    <message>
        <source>Use the %1 copy</source>
        <translation>使用 %1 副本</translation>
    </message>
    <message>
        <source>Quantize the embedding tables too</source>
        <translation>同时量化嵌入表</translation>
    </message>
    <message>
        <source>The token and codebook embeddings in the same format: S2-Pro&apos;s take 1 GB in bf16, 0.5 GB in int8, 0.27 GB in int4. fish-speech&apos;s quantize.py keeps them in bf16.</source>
        <translation>词元和码本嵌入使用相同格式：S2-Pro 的嵌入在 bf16 下占 1 GB，int8 下 0.5 GB，int4 下 0.27 GB。fish-speech 的 quantize.py 将其保留为 bf16。</translation>
    </message>
</context>
<context>
    <name>reef::ui::QueueView</name>
    <message>
        <source>Generation queue</source>
        <translation>生成队列</translation>
    </message>
    <message>
        <source>&amp;Cancel item</source>
        <translation>取消此项(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel &amp;all</source>
        <translation>全部取消(&amp;A)</translation>
    </message>
    <message>
        <source>C&amp;lear finished</source>
        <translation>清除已结束项(&amp;L)</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) waiting for the model.</source>
        <translation>
            <numerusform>%n 项正在等待模型。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) to go</source>
        <translation>
            <numerusform>还剩 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing queued. Generate adds the text here, and a project adds its segments.</source>
        <translation>队列为空。“生成”会把文本加入这里，项目会加入它的片段。</translation>
    </message>
    <message numerus="yes">
        <source>%n done</source>
        <translation>
            <numerusform>完成 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>失败 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cancelled</source>
        <translation>
            <numerusform>取消 %n 项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::SecretStore</name>
    <message>
        <source>no secret store (Secret Service or KWallet) is running on this desktop</source>
        <translation>此桌面上没有运行密钥存储（Secret Service 或 KWallet）</translation>
    </message>
    <message>
        <source>the secret store refused access</source>
        <translation>密钥存储拒绝了访问</translation>
    </message>
    <message>
        <source>the desktop&apos;s secret store did not answer (is a Secret Service or KWallet running?)</source>
        <translation>桌面的密钥存储没有响应（Secret Service 或 KWallet 是否在运行？）</translation>
    </message>
    <message>
        <source>this build has no secret store support (QtKeychain)</source>
        <translation>此版本不支持密钥存储（QtKeychain）</translation>
    </message>
</context>
<context>
    <name>reef::ui::ServerSettings</name>
    <message>
        <source>Speech from a server</source>
        <translation>在服务器上合成语音</translation>
    </message>
    <message>
        <source>Make speech on a server instead of this computer</source>
        <translation>在服务器上而不是本机上合成语音</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <source>ask the server</source>
        <translation>询问服务器</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>the server&apos;s default</source>
        <translation>服务器的默认值</translation>
    </message>
    <message>
        <source>OpenAI-compatible servers: the model name; Fish Audio: its model (s1, s2-pro…)</source>
        <translation>OpenAI 兼容服务器：模型名称；Fish Audio：其模型（s1、s2-pro…）</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Sent as &quot;Authorization: Bearer&quot;. Kept in the desktop&apos;s secret store (for this session only where there is none), never in the settings file.</source>
        <translation>以“Authorization: Bearer”发送。保存在桌面的密钥存储中（没有密钥存储时只保留到本次会话结束），从不写入设置文件。</translation>
    </message>
    <message>
        <source>How many queued items the server gets at once: servers that batch (SGLang-Omni, vLLM-Omni) make more speech per second with more</source>
        <translation>服务器同时接收的排队项目数：能批处理的服务器（SGLang-Omni、vLLM-Omni）数量越多，每秒合成的语音越多</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>同时请求数</translation>
    </message>
    <message>
        <source>Server profile</source>
        <translation>服务器配置</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Save the server profile</source>
        <translation>保存服务器配置</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>(not saved)</source>
        <translation>（未保存）</translation>
    </message>
</context>
<context>
    <name>reef::ui::Settings</name>
    <message>
        <source>%1 %2 (loaded: %3)</source>
        <translation>%1 %2（已加载：%3）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>model folder %1</source>
        <translation>模型文件夹 %1</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程</translation>
    </message>
    <message>
        <source>compile mode</source>
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
        <source>Settings → Speech from a server → Key</source>
        <translation>设置 → 在服务器上合成语音 → 密钥</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>fewer threads while others are busy</source>
        <translation>其他程序繁忙时减少线程</translation>
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
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>A new language applies when Reef starts again.</source>
        <translation>新语言将在 Reef 重新启动后生效。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Takes are kept across restarts up to this size on disk; the oldest go first</source>
        <translation>重启后仍保留的生成结果在磁盘上最多占用这么多空间；超出时最早的先删除</translation>
    </message>
    <message>
        <source>Take history</source>
        <translation>生成结果历史</translation>
    </message>
    <message>
        <source>A whole number from 0 to %1: the same seed and settings give the same take</source>
        <translation>0 到 %1 之间的整数：相同的种子和设置得到相同的生成结果</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Install the Python that compile mode aot-inductor needs (a private venv with the matching torch, several hundred MB), the same as reef-cli compile --setup</source>
        <translation>安装编译模式 aot-inductor 所需的 Python（包含匹配 torch 的私有 venv，数百 MB），与 reef-cli compile --setup 相同</translation>
    </message>
    <message>
        <source>aot-inductor is ready.</source>
        <translation>aot-inductor 已就绪。</translation>
    </message>
    <message>
        <source>Set-up failed: %1</source>
        <translation>设置失败：%1</translation>
    </message>
    <message>
        <source>1 (one at a time, streamed)</source>
        <translation>1（逐个生成，流式播放）</translation>
    </message>
    <message>
        <source>auto (by free memory)</source>
        <translation>自动（按可用内存）</translation>
    </message>
    <message>
        <source>How many queued items (project segments) decode together on this computer: more gives more frames per second in all, each item a little slower; items in a batch are played when they are done. Each item sounds exactly as it would alone.</source>
        <translation>在本机上同时解码的队列项目（项目片段）数量：越多则总帧率越高，但每个项目稍慢；批次中的项目在完成后播放。每个项目的声音与单独生成时完全相同。</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Setting up the Python for aot-inductor…</source>
        <translation>正在为 aot-inductor 设置 Python…</translation>
    </message>
    <message>
        <source>aot-inductor: %1</source>
        <translation>aot-inductor：%1</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Reload now</source>
        <translation>立即重新加载</translation>
    </message>
    <message>
        <source>Load the model again with the settings shown here</source>
        <translation>用这里显示的设置重新加载模型</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <source>%1 threads on %2 usable CPU cores: the threads take turns on the cores, and decoding runs many times slower. Pick &quot;default&quot; or at most %2.</source>
        <translation>在 %2 个可用 CPU 核心上使用 %1 个线程：线程只能轮流使用核心，解码会慢很多倍。请选择“默认”或不超过 %2。</translation>
    </message>
    <message>
        <source>Speech comes from the server %1 (%2). The Engine settings below are this computer&apos;s: they apply when you load a model here again.</source>
        <translation>语音来自服务器 %1（%2）。下面的引擎设置属于本机：在本机重新加载模型时才会生效。</translation>
    </message>
    <message>
        <source>it does not say how it runs the model</source>
        <translation>它没有说明如何运行模型</translation>
    </message>
    <message>
        <source>Reload needed: the loaded model runs with other settings. Changed: %1. Generate reloads first when nothing is running.</source>
        <translation>需要重新加载：已加载的模型使用的是其他设置。已更改：%1。没有任务运行时，“生成”会先重新加载。</translation>
    </message>
    <message>
        <source>Smaller weights</source>
        <translation>更小的权重</translation>
    </message>
    <message>
        <source>Quantize (int8/int4)…</source>
        <translation>量化 (int8/int4)…</translation>
    </message>
    <message>
        <source>Write an int8 or int4 copy of the model folder (the same as reef-cli quantize): int8 takes about half of bf16&apos;s memory and stays closest to bf16; int4 about a quarter, a bit further from bf16</source>
        <translation>写出模型文件夹的 int8 或 int4 副本（与 reef-cli quantize 相同）：int8 约占 bf16 一半的内存且最接近 bf16；int4 约四分之一，与 bf16 稍有差距</translation>
    </message>
    <message>
        <source>%1 weights: %2 in memory</source>
        <translation>%1 权重：内存中 %2</translation>
    </message>
    <message>
        <source>%1 weights: %2 in memory; an int8 copy: %3, an int4 copy (group 128): %4 (Engine → Quantize (int8/int4)…)</source>
        <translation>%1 权重：内存中 %2；int8 副本：%3，int4 副本（组 128）：%4（引擎 → 量化 (int8/int4)…）</translation>
    </message>
    <message>
        <source>Fewer while other programs are busy</source>
        <translation>其他程序繁忙时减少</translation>
    </message>
    <message>
        <source>While another program keeps a core busy, every thread of a CPU frame waits for the one it holds up: decoding measures fewer threads now and then and keeps them while they are faster (the take&apos;s codes stay the same). Off: every frame uses all the threads above.</source>
        <translation>当其他程序一直占用某个核心时，CPU 帧的每个线程都要等待被拖慢的那个线程：解码会不时测量更少的线程数，并在更快时保留它（录音的编码保持不变）。关：每一帧都使用上面设置的全部线程。</translation>
    </message>
</context>
<context>
    <name>reef::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Space&lt;/b&gt; plays or pauses unless you are typing text or a button has the focus (then Space presses it). &lt;b&gt;Tab&lt;/b&gt; and &lt;b&gt;Shift+Tab&lt;/b&gt; move between controls; &lt;b&gt;Alt&lt;/b&gt; with an underlined letter opens a menu or jumps to a field.&lt;/p&gt;&lt;p&gt;Generate works on the Synthesis tab&apos;s text; on the Project tab it generates the selected segment.&lt;/p&gt;</source>
        <translation>&lt;p&gt;按 &lt;b&gt;Space&lt;/b&gt; 可播放或暂停，除非你正在输入文本或焦点在按钮上（此时 Space 会按下该按钮）。&lt;b&gt;Tab&lt;/b&gt; 和 &lt;b&gt;Shift+Tab&lt;/b&gt; 在控件之间移动；&lt;b&gt;Alt&lt;/b&gt; 加带下划线的字母可打开菜单或跳转到对应字段。&lt;/p&gt;&lt;p&gt;“生成”作用于“合成”标签页中的文本；在“项目”标签页中则生成所选片段。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>reef::ui::StudioController</name>
    <message>
        <source>Could not encode the reference clip: %1</source>
        <translation>无法编码参考音频：%1</translation>
    </message>
    <message>
        <source>Pronunciation dictionary not loaded: %1</source>
        <translation>发音词典未加载：%1</translation>
    </message>
    <message>
        <source>Pronunciation dictionary not saved: %1</source>
        <translation>发音词典未保存：%1</translation>
    </message>
    <message>
        <source>Choose a model folder first (File → Open model folder…).</source>
        <translation>请先选择模型文件夹（文件 → 打开模型文件夹…）。</translation>
    </message>
    <message>
        <source>Pronunciation dictionary: spoken as “%1”</source>
        <translation>发音词典：读作“%1”</translation>
    </message>
    <message>
        <source>A segment was deleted while it was being generated; its audio was dropped.</source>
        <translation>有片段在生成过程中被删除，其音频已丢弃。</translation>
    </message>
    <message>
        <source>Segment %1 done: %2 frames, %3 s of audio</source>
        <translation>片段 %1 已完成：%2 帧，%3 秒音频</translation>
    </message>
    <message>
        <source>Done (%1): %2</source>
        <translation>完成（%1）：%2</translation>
    </message>
    <message>
        <source>Settings of take %1 are now the current ones (seed %2).</source>
        <translation>生成结果 %1 的设置已设为当前设置（种子 %2）。</translation>
    </message>
    <message>
        <source>Nothing to play yet: generate it first.</source>
        <translation>还没有可播放的内容：请先生成。</translation>
    </message>
    <message>
        <source>Cannot read the reference clip: %1</source>
        <translation>无法读取参考音频：%1</translation>
    </message>
    <message>
        <source>Opened the project %1</source>
        <translation>已打开项目 %1</translation>
    </message>
    <message>
        <source>The project was not saved: %1</source>
        <translation>项目未保存：%1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>未命名项目</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) to %1</source>
        <translation>
            <numerusform>已将 %n 个文件写入 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n segment(s) without audio skipped</source>
        <translation>
            <numerusform>；已跳过 %n 个没有音频的片段</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown audio format (use .wav, .flac, .ogg or .mp3)</source>
        <translation>未知的音频格式（请使用 .wav、.flac、.ogg 或 .mp3）</translation>
    </message>
    <message>
        <source>no take at row %1</source>
        <translation>第 %1 行没有生成结果</translation>
    </message>
    <message>
        <source>Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it to another folder.</source>
        <translation>无法将音频导出到 %1：%2。未写入任何内容；生成结果仍然保留，可以将其导出到其他文件夹。</translation>
    </message>
    <message>
        <source>The server key is not saved (%1): Reef keeps it until it quits.</source>
        <translation>服务器密钥未保存（%1）：Reef 会保留它直到退出。</translation>
    </message>
    <message>
        <source>Give the server&apos;s address first (Settings → Speech from a server).</source>
        <translation>请先填写服务器地址（设置 → 在服务器上合成语音）。</translation>
    </message>
    <message>
        <source>Reconnecting failed: the connection goes on with the key it had, shown again in Settings.</source>
        <translation>重新连接失败：连接继续使用原来的密钥，设置中已重新显示该密钥。</translation>
    </message>
    <message>
        <source>&lt;b&gt;These engine settings cannot run together.&lt;/b&gt; %1: %2 (Settings → Engine).</source>
        <translation>&lt;b&gt;这些引擎设置不能同时使用。&lt;/b&gt;%1：%2（设置 → 引擎）。</translation>
    </message>
    <message>
        <source>Runs with the loaded model&apos;s settings; the new ones (%1) need a reload: Settings → Reload now.</source>
        <translation>将按已加载模型的设置运行；新设置（%1）需要重新加载：设置 → 立即重新加载。</translation>
    </message>
    <message>
        <source>Reloading the model to apply %1, then generating.</source>
        <translation>正在重新加载模型以应用 %1，随后开始生成。</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>完成：%1</translation>
    </message>
    <message>
        <source>A segment or take was deleted while it was being re-decoded.</source>
        <translation>重新解码期间，片段或录音已被删除。</translation>
    </message>
    <message>
        <source>Re-decoding failed: %1</source>
        <translation>重新解码失败：%1</translation>
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
        <source>Text to speak</source>
        <translation>要朗读的文本</translation>
    </message>
    <message>
        <source>Generation progress</source>
        <translation>生成进度</translation>
    </message>
    <message>
        <source>Generation status</source>
        <translation>生成状态</translation>
    </message>
    <message>
        <source>Sample texts</source>
        <translation>示例文本</translation>
    </message>
    <message>
        <source>Speaker %1</source>
        <translation>说话人 %1</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>音色(&amp;V)：</translation>
    </message>
    <message>
        <source>%1× real time</source>
        <translation>%1× 实时</translation>
    </message>
    <message>
        <source>— real time</source>
        <translation>— 实时</translation>
    </message>
    <message>
        <source>%1 frames · %2 s elapsed · %3 · %4</source>
        <translation>%1 帧 · 已用 %2 秒 · %3 · %4</translation>
    </message>
</context>
<context>
    <name>reef::ui::SynthesisQueue</name>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>正在运行</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>running %1 %</source>
        <translation>正在运行 %1 %</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>batch of %1</source>
        <translation>%1 项一批</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批</translation>
    </message>
    <message>
        <source>waiting for a slot in the %1</source>
        <translation>在%1中等待空位</translation>
    </message>
    <message>
        <source>running %1 % (%2)</source>
        <translation>正在运行 %1 %（%2）</translation>
    </message>
</context>
<context>
    <name>reef::ui::TakeHistory</name>
    <message>
        <source>the take history in %1 is loaded once, before any take is made</source>
        <translation>%1 中的生成结果历史只在产生任何生成结果之前加载一次</translation>
    </message>
    <message>
        <source>cannot read the take history %1: %2</source>
        <translation>无法读取生成结果历史 %1：%2</translation>
    </message>
    <message>
        <source>cannot read the take history %1: not valid JSON (%2 at byte %3); it is kept as it is</source>
        <translation>无法读取生成结果历史 %1：不是有效的 JSON（第 %3 字节处%2）；文件保持原样</translation>
    </message>
    <message>
        <source>cannot read the take history %1: not a Reef take history; it is kept as it is</source>
        <translation>无法读取生成结果历史 %1：不是 Reef 生成结果历史；文件保持原样</translation>
    </message>
    <message>
        <source>cannot read the take history %1: format version %2, this Reef reads up to %3; it is kept as it is</source>
        <translation>无法读取生成结果历史 %1：格式版本为 %2，此版本的 Reef 最高只能读取 %3；文件保持原样</translation>
    </message>
    <message>
        <source>take %1 of the history in %2 is skipped: %3</source>
        <translation>已跳过 %2 中历史记录的生成结果 %1：%3</translation>
    </message>
    <message>
        <source>its entry has no take number</source>
        <translation>其条目没有生成结果编号</translation>
    </message>
    <message>
        <source>its number is used twice</source>
        <translation>其编号被使用了两次</translation>
    </message>
    <message>
        <source>its audio &quot;%1&quot; is not a file in the history folder</source>
        <translation>其音频 &quot;%1&quot; 不是历史文件夹中的文件</translation>
    </message>
    <message>
        <source>%1 is not mono %2 Hz audio</source>
        <translation>%1 不是 %2 Hz 单声道音频</translation>
    </message>
    <message>
        <source>%1 does not hold the samples the index lists</source>
        <translation>%1 不包含索引中列出的采样</translation>
    </message>
    <message>
        <source>take %1 is not kept in the history: cannot create the folder %2</source>
        <translation>生成结果 %1 未保存到历史记录：无法创建文件夹 %2</translation>
    </message>
    <message>
        <source>take %1 is not kept in the history: %2</source>
        <translation>生成结果 %1 未保存到历史记录：%2</translation>
    </message>
    <message>
        <source>cannot write the take history: cannot create the folder %1</source>
        <translation>无法写入生成结果历史：无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>the take history %1 is unreadable and could not be set aside; new takes are not kept</source>
        <translation>生成结果历史 %1 无法读取，也无法另行保留；新的生成结果不会被保存</translation>
    </message>
    <message>
        <source>the unreadable take history was kept as %1; a new one was started</source>
        <translation>无法读取的生成结果历史已另存为 %1；已新建一个历史记录</translation>
    </message>
    <message>
        <source>cannot write the take history %1: %2</source>
        <translation>无法写入生成结果历史 %1：%2</translation>
    </message>
    <message>
        <source>cannot delete %1 from the take history</source>
        <translation>无法从生成结果历史中删除 %1</translation>
    </message>
    <message>
        <source>its sampling settings: %1</source>
        <translation>其采样设置：%1</translation>
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
    <message>
        <source>server %1 (%2)</source>
        <translation>服务器 %1（%2）</translation>
    </message>
    <message>
        <source>its engine settings not reported</source>
        <translation>未报告其引擎设置</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>无声</translation>
    </message>
    <message>
        <source>LUFS</source>
        <translation>LUFS</translation>
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
    <message>
        <source>Takes</source>
        <translation>生成结果</translation>
    </message>
    <message>
        <source>Re-use settings</source>
        <translation>沿用设置</translation>
    </message>
    <message>
        <source>Make this take&apos;s sampling settings, seed and voice the current ones</source>
        <translation>将此生成结果的采样设置、种子和音色设为当前设置</translation>
    </message>
    <message>
        <source>Export all…</source>
        <translation>全部导出…</translation>
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
