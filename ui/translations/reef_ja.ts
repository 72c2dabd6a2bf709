<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>BatchExport</name>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>フォルダー %1 を作成できません。</translation>
    </message>
    <message>
        <source>Nothing to export: no segment of the project has audio yet.</source>
        <translation>エクスポートするものがありません。プロジェクトのどのセグメントにもまだ音声がありません。</translation>
    </message>
    <message>
        <source>Reef project</source>
        <translation>Reef プロジェクト</translation>
    </message>
    <message>
        <source>segment %1</source>
        <translation>セグメント %1</translation>
    </message>
    <message>
        <source>Nothing to export: there are no takes.</source>
        <translation>エクスポートするものがありません。テイクがありません。</translation>
    </message>
</context>
<context>
    <name>BookExport</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 を書き込めません：%2</translation>
    </message>
    <message>
        <source>cannot export into %1: the folder does not exist</source>
        <translation>%1 にエクスポートできません：フォルダーがありません</translation>
    </message>
    <message>
        <source>Nothing to export: no segment of the project has audio yet.</source>
        <translation>エクスポートするものがありません：プロジェクトのどのセグメントにもまだ音声がありません。</translation>
    </message>
</context>
<context>
    <name>EpubImport</name>
    <message>
        <source>not a zip archive (%1)</source>
        <translation>zip アーカイブではありません（%1）</translation>
    </message>
    <message>
        <source>%1 entries in the archive; at most %2 are read</source>
        <translation>アーカイブに %1 個のエントリがあります。読み込めるのは最大 %2 個です</translation>
    </message>
    <message>
        <source>the entry &quot;%1&quot; points outside the book (path traversal)</source>
        <translation>エントリ「%1」がブックの外を指しています（パストラバーサル）</translation>
    </message>
    <message>
        <source>the entry &quot;%1&quot; inflates to %2 MiB from %3 KiB: a zip bomb</source>
        <translation>エントリ「%1」は %3 KiB から %2 MiB に展開されます：zip 爆弾です</translation>
    </message>
    <message>
        <source>the book names &quot;%1&quot;, which is not in the archive</source>
        <translation>ブックが「%1」を参照していますが、アーカイブにありません</translation>
    </message>
    <message>
        <source>cannot open &quot;%1&quot;: %2</source>
        <translation>「%1」を開けません：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is damaged: %2</source>
        <translation>「%1」は壊れています：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is larger than %2 MiB uncompressed</source>
        <translation>「%1」は展開後 %2 MiB を超えます</translation>
    </message>
    <message>
        <source>the book&apos;s text is larger than %1 MiB uncompressed</source>
        <translation>ブックのテキストは展開後 %1 MiB を超えます</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>%1 行目：%2</translation>
    </message>
    <message>
        <source>not an EPUB (no META-INF/container.xml)</source>
        <translation>EPUB ではありません（META-INF/container.xml がありません）</translation>
    </message>
    <message>
        <source>META-INF/container.xml names no package document</source>
        <translation>META-INF/container.xml にパッケージ文書が指定されていません</translation>
    </message>
    <message>
        <source>%1: line %2: %3</source>
        <translation>%1：%2 行目：%3</translation>
    </message>
    <message>
        <source>the package document %1 has an empty spine: no text to read</source>
        <translation>パッケージ文書 %1 の spine が空です：読むテキストがありません</translation>
    </message>
    <message>
        <source>the spine names &quot;%1&quot;, which the manifest lacks</source>
        <translation>spine が「%1」を参照していますが、manifest にありません</translation>
    </message>
    <message>
        <source>the manifest item &quot;%1&quot; points outside the book (path traversal)</source>
        <translation>manifest の項目「%1」がブックの外を指しています（パストラバーサル）</translation>
    </message>
    <message>
        <source>%1 is not well-formed XHTML (%2)</source>
        <translation>%1 は整形式の XHTML ではありません（%2）</translation>
    </message>
    <message>
        <source>Chapter %1</source>
        <translation>第 %1 章</translation>
    </message>
    <message>
        <source>the book has no text in its reading order</source>
        <translation>ブックの読み順にテキストがありません</translation>
    </message>
    <message>
        <source>the file is %1 MiB; an EPUB is read up to %2 MiB</source>
        <translation>ファイルは %1 MiB です。EPUB は最大 %2 MiB まで読み込みます</translation>
    </message>
</context>
<context>
    <name>ProjectFile</name>
    <message>
        <source>&quot;%1&quot; is missing</source>
        <translation>&quot;%1&quot; がありません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not %2</source>
        <translation>&quot;%1&quot; が%2ではありません</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>文字列</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is %2 characters long; at most %3 are allowed</source>
        <translation>&quot;%1&quot; の長さが %2 文字です。最大 %3 文字までです</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数値</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is out of range (%3 to %4)</source>
        <translation>&quot;%1&quot; = %2 は範囲外です（%3～%4）</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>オブジェクト</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>リスト</translation>
    </message>
    <message>
        <source>the take id &quot;%1&quot; has characters other than A-Z a-z 0-9 _ -</source>
        <translation>テイク ID &quot;%1&quot; に A-Z a-z 0-9 _ - 以外の文字が含まれています</translation>
    </message>
    <message>
        <source>&quot;audio&quot; must name a .wav file in the project&apos;s audio folder, not &quot;%1&quot;</source>
        <translation>&quot;audio&quot; には &quot;%1&quot; ではなく、プロジェクトの音声フォルダー内の .wav ファイル名を指定する必要があります</translation>
    </message>
    <message>
        <source>&quot;created&quot; is not an ISO 8601 date: &quot;%1&quot;</source>
        <translation>&quot;created&quot; が ISO 8601 形式の日付ではありません：&quot;%1&quot;</translation>
    </message>
    <message>
        <source>the segment id &quot;%1&quot; has characters other than A-Z a-z 0-9 _ -</source>
        <translation>セグメント ID &quot;%1&quot; に A-Z a-z 0-9 _ - 以外の文字が含まれています</translation>
    </message>
    <message>
        <source>%1 takes; at most %2 are allowed</source>
        <translation>テイクが %1 個あります。最大 %2 個までです</translation>
    </message>
    <message>
        <source>%1, take %2</source>
        <translation>%1、テイク %2</translation>
    </message>
    <message>
        <source>is not an object</source>
        <translation>オブジェクトではありません</translation>
    </message>
    <message>
        <source>%1 segments; at most %2 are allowed</source>
        <translation>セグメントが %1 個あります。最大 %2 個までです</translation>
    </message>
    <message>
        <source>segment %1</source>
        <translation>セグメント %1</translation>
    </message>
    <message>
        <source>is not a string</source>
        <translation>文字列ではありません</translation>
    </message>
    <message>
        <source>is longer than %1 characters</source>
        <translation>%1 文字を超えています</translation>
    </message>
    <message>
        <source>&quot;audioDir&quot; must be the name of a folder beside the project file, not &quot;%1&quot;</source>
        <translation>&quot;audioDir&quot; には &quot;%1&quot; ではなく、プロジェクトファイルと同じ場所にあるフォルダーの名前を指定する必要があります</translation>
    </message>
    <message>
        <source>the id &quot;%1&quot; is used twice</source>
        <translation>ID &quot;%1&quot; が 2 回使われています</translation>
    </message>
    <message>
        <source>the take id &quot;%1&quot; is used twice</source>
        <translation>テイク ID &quot;%1&quot; が 2 回使われています</translation>
    </message>
    <message>
        <source>its takes hold %1 hours of audio; at most %2 can be opened</source>
        <translation>テイクの音声が合計 %1 時間あります。開けるのは最大 %2 時間までです</translation>
    </message>
    <message>
        <source>segment %1, take %2</source>
        <translation>セグメント %1、テイク %2</translation>
    </message>
    <message>
        <source>%1 is %2 Hz with %3 channels; takes are mono %4 Hz</source>
        <translation>%1 は %2 Hz、%3 チャンネルです。テイクはモノラル %4 Hz である必要があります</translation>
    </message>
    <message>
        <source>%1 holds %2 samples; the project expects %3</source>
        <translation>%1 のサンプル数は %2 ですが、プロジェクトでは %3 のはずです</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>ファイルが存在しません</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>通常のファイルではありません</translation>
    </message>
    <message>
        <source>the file is %1 MiB; a project file is at most %2 MiB</source>
        <translation>ファイルサイズが %1 MiB です。プロジェクトファイルは最大 %2 MiB までです</translation>
    </message>
    <message>
        <source>cannot read it: %1</source>
        <translation>読み込めません：%1</translation>
    </message>
    <message>
        <source>the file grew past %1 MiB while being read</source>
        <translation>読み込み中にファイルが %1 MiB を超えて大きくなりました</translation>
    </message>
    <message>
        <source>not valid JSON (%1 at byte %2): the file is damaged or was cut off</source>
        <translation>有効な JSON ではありません（%2 バイト目で %1）。ファイルが破損しているか、途中で切れています</translation>
    </message>
    <message>
        <source>not a Reef project (the JSON is not an object)</source>
        <translation>Reef プロジェクトではありません（JSON がオブジェクトではありません）</translation>
    </message>
    <message>
        <source>not a Reef project (&quot;format&quot; is not &quot;reef-project&quot;)</source>
        <translation>Reef プロジェクトではありません（&quot;format&quot; が &quot;reef-project&quot; ではありません）</translation>
    </message>
    <message>
        <source>written by a newer Reef (project format version %1); this Reef reads versions 1 to %2</source>
        <translation>新しいバージョンの Reef で保存されています（プロジェクト形式バージョン %1）。この Reef が読み込めるのはバージョン 1～%2 です</translation>
    </message>
    <message>
        <source>unknown project format version %1</source>
        <translation>不明なプロジェクト形式バージョン %1</translation>
    </message>
    <message>
        <source>cannot save %1: the folder %2 does not exist</source>
        <translation>%1 を保存できません：フォルダー %2 が存在しません</translation>
    </message>
    <message>
        <source>cannot save %1: %2 is in the way of its audio folder</source>
        <translation>%1 を保存できません：%2 が音声フォルダーの場所をふさいでいます</translation>
    </message>
    <message>
        <source>cannot save %1: cannot create the audio folder %2</source>
        <translation>%1 を保存できません：音声フォルダー %2 を作成できません</translation>
    </message>
    <message>
        <source>cannot save %1: %2</source>
        <translation>%1 を保存できません：%2</translation>
    </message>
    <message>
        <source>cannot save %1: the project file would be %2 MiB, more than the %3 MiB Reef opens</source>
        <translation>%1 を保存できません：プロジェクトファイルが %2 MiB になり、Reef が開ける %3 MiB を超えます</translation>
    </message>
    <message>
        <source>sampling: %1</source>
        <translation>サンプリング設定: %1</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true または false</translation>
    </message>
    <message>
        <source>%1 speakers; at most 1000 are allowed</source>
        <translation>話者が %1 人います。最大 1000 人までです</translation>
    </message>
    <message>
        <source>the speaker &quot;%1&quot; is not a speaker name</source>
        <translation>「%1」は話者名ではありません</translation>
    </message>
    <message>
        <source>the voice of speaker &quot;%1&quot; is not a voice id</source>
        <translation>話者「%1」の声は声 ID ではありません</translation>
    </message>
    <message>
        <source>&quot;codes&quot; must name a .codes file in the project&apos;s audio folder, not &quot;%1&quot;</source>
        <translation>「codes」はプロジェクトの音声フォルダー内の .codes ファイルでなければなりません（「%1」ではなく）</translation>
    </message>
    <message>
        <source>&quot;speed&quot; = %1 is out of range (0.5 to 2, or 0 for the project&apos;s)</source>
        <translation>「speed」= %1 が範囲外です（0.5〜2、またはプロジェクトの設定を使う 0）</translation>
    </message>
</context>
<context>
    <name>SamplingJson</name>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>&quot;%1&quot; は数値ではありません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is outside the allowed range %3%4</source>
        <translation>&quot;%1&quot; = %2 は許容範囲 %3 の外です%4</translation>
    </message>
    <message>
        <source> (whole numbers)</source>
        <translation>（整数のみ）</translation>
    </message>
    <message>
        <source>&quot;seed&quot; = &quot;%1&quot; is not a whole number from 0 to %2</source>
        <translation>&quot;seed&quot; = &quot;%1&quot; は 0 から %2 までの整数ではありません</translation>
    </message>
    <message>
        <source>&quot;seed&quot; = %1 is not a whole number a JSON number holds exactly (0 to 2^53; larger seeds are written as strings)</source>
        <translation>&quot;seed&quot; = %1 は JSON の数値で正確に表せる整数ではありません（0 から 2^53 まで。これより大きいシードは文字列で書き込まれます）</translation>
    </message>
    <message>
        <source>&quot;seed&quot; is not a number</source>
        <translation>&quot;seed&quot; は数値ではありません</translation>
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
        <translation>0 = 貪欲デコード</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>nucleus: the smallest set of tokens holding this probability</source>
        <translation>ニュークリアス: 累積確率がこの値に達する最小のトークン集合</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>the k most likely tokens (0 = off, 1 = greedy)</source>
        <translation>確率の高い上位 k 個のトークン（0 = オフ、1 = 貪欲）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>繰り返しペナルティ</translation>
    </message>
    <message>
        <source>S1-mini: divides the logits of recently used tokens (1 = off)</source>
        <translation>S1-mini: 最近使われたトークンのロジットを下げます（1 = オフ）</translation>
    </message>
    <message>
        <source>Max new frames</source>
        <translation>最大新規フレーム数</translation>
    </message>
    <message>
        <source>frames per text batch (21.5 frames = 1 s; 0 = up to the model&apos;s limit)</source>
        <translation>テキストバッチあたりのフレーム数（21.5 フレーム = 1 秒、0 = モデルの上限まで）</translation>
    </message>
    <message>
        <source>model limit</source>
        <translation>モデルの上限</translation>
    </message>
    <message>
        <source>Chunk length</source>
        <translation>チャンク長</translation>
    </message>
    <message>
        <source>UTF-8 bytes of speaker turns per text batch (0 = no length limit)</source>
        <translation>テキストバッチあたりの話者ターンの UTF-8 バイト数（0 = 長さ制限なし）</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>制限なし</translation>
    </message>
</context>
<context>
    <name>TextImport</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 を開けません：%2</translation>
    </message>
    <message>
        <source>the file does not exist.</source>
        <translation>ファイルが存在しません。</translation>
    </message>
    <message>
        <source>it is not a regular file.</source>
        <translation>通常のファイルではありません。</translation>
    </message>
    <message>
        <source>it is %1 MB; Reef opens text files up to %2 MB (split it into chapters).</source>
        <translation>サイズが %1 MB です。Reef が開けるテキストファイルは %2 MB までです（章ごとに分割してください）。</translation>
    </message>
    <message>
        <source>it is not a text file (it contains binary data).</source>
        <translation>テキストファイルではありません（バイナリデータが含まれています）。</translation>
    </message>
    <message>
        <source>it is not UTF-8 text. Save it as UTF-8 and open it again.</source>
        <translation>UTF-8 のテキストではありません。UTF-8 で保存してから開き直してください。</translation>
    </message>
    <message>
        <source>it holds no text.</source>
        <translation>テキストが含まれていません。</translation>
    </message>
</context>
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
    <name>reef::ui::AppVersions</name>
    <message>
        <source>not compiled in</source>
        <translation>ビルドに含まれていません</translation>
    </message>
    <message>
        <source>available, CUDA %1</source>
        <translation>利用可能、CUDA %1</translation>
    </message>
    <message>
        <source>compiled in, no GPU visible</source>
        <translation>ビルドに含まれていますが、GPU が見つかりません</translation>
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
    <name>reef::ui::BatchTableModel</name>
    <message>
        <source>ran</source>
        <translation>実行済み</translation>
    </message>
    <message>
        <source>ran (CPU kernels %1)</source>
        <translation>実行済み（CPU カーネル %1）</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>スキップ：%1</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>バッチ</translation>
    </message>
    <message>
        <source>frames/s, all</source>
        <translation>frames/s（全体）</translation>
    </message>
    <message>
        <source>frames/s, each</source>
        <translation>frames/s（各系列）</translation>
    </message>
    <message>
        <source>vs batch 1</source>
        <translation>バッチ 1 比</translation>
    </message>
    <message>
        <source>batch frame (ms)</source>
        <translation>バッチフレーム (ms)</translation>
    </message>
    <message>
        <source>roofline</source>
        <translation>ルーフライン</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>ピークメモリ</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状態</translation>
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
        <source>%1 of the %2 frames/s that memory bandwidth allows (%3 MB per frame, read at %4 GB/s, the fast stack&apos;s re-reads at %5 GB/s); %6 if every byte came from memory</source>
        <translation>メモリ帯域幅で可能な %2 frames/s のうち %1（1 フレームあたり %3 MB、読み取り %4 GB/s、高速スタックの再読み込み %5 GB/s）。すべてのバイトをメモリから読む場合は %6</translation>
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
        <source>listen</source>
        <translation>試聴</translation>
    </message>
    <message>
        <source>(within tolerance)</source>
        <translation>（許容範囲内）</translation>
    </message>
    <message>
        <source>(OVER tolerance)</source>
        <translation>（許容範囲超過）</translation>
    </message>
    <message>
        <source>warm
frames/s</source>
        <translation>ウォーム
フレーム/秒</translation>
    </message>
    <message>
        <source>% of
roofline</source>
        <translation>ルーフライン
に対する %</translation>
    </message>
    <message>
        <source>cold first
frame (ms)</source>
        <translation>コールド初回
フレーム (ms)</translation>
    </message>
    <message>
        <source>first audio
(ms)</source>
        <translation>最初の音声
(ms)</translation>
    </message>
    <message>
        <source>peak
memory</source>
        <translation>ピーク
メモリ</translation>
    </message>
    <message>
        <source>backend per
call site</source>
        <translation>呼び出し箇所
ごとのバックエンド</translation>
    </message>
    <message>
        <source>max |Δ logit|
(tolerance)</source>
        <translation>最大 |Δ logit|
(許容範囲)</translation>
    </message>
    <message>
        <source>greedy
agreement</source>
        <translation>グリーディ
一致率</translation>
    </message>
    <message>
        <source>The largest difference of any logit from the reference arm&apos;s, against the tolerance of the arm&apos;s precision: within it, the arm computes what the reference computes. Greedy agreement beside it can still drop: random weights make near-ties that any rounding flips.</source>
        <translation>参照アームとの logit の差の最大値を、そのアームの精度の許容範囲と比べたものです。範囲内なら、参照と同じ計算をしています。隣のグリーディ一致率はそれでも下がることがあります：ランダムな重みでは僅差の候補が生じ、わずかな丸めで順位が入れ替わるためです。</translation>
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
    <message>
        <source>Batched decode throughput</source>
        <translation>バッチデコードのスループット</translation>
    </message>
    <message>
        <source>batch sizes, e.g. 1,4,8</source>
        <translation>バッチサイズ（例：1,4,8）</translation>
    </message>
    <message>
        <source>Sequences decoding together. For each size, the reference arm decodes that many copies of the prompt in one batch; the table below shows frames/s of all of them and of each. Empty = no batch points.</source>
        <translation>同時にデコードする系列数。サイズごとに、基準の構成がその数のプロンプトを 1 つのバッチでデコードします。下の表に全体と各系列の frames/s を示します。空欄 = バッチ測定なし。</translation>
    </message>
    <message>
        <source>Batch sizes</source>
        <translation>バッチサイズ</translation>
    </message>
</context>
<context>
    <name>reef::ui::DictionaryDialog</name>
    <message>
        <source>Pronunciation dictionary</source>
        <translation>発音辞書</translation>
    </message>
    <message>
        <source>Whole words in your text are replaced before the model reads it: write a word the way it should sound (&quot;SQL&quot; → &quot;sequel&quot;). Chinese and Japanese words match inside a sentence too.</source>
        <translation>モデルがテキストを読む前に、テキスト内の単語全体が置き換えられます。単語は読み上げてほしい通りに書いてください（「SQL」→「sequel」）。中国語と日本語の単語は文の途中でも一致します。</translation>
    </message>
    <message>
        <source>Replacements</source>
        <translation>置換リスト</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>追加(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>削除(&amp;R)</translation>
    </message>
    <message>
        <source>Match &amp;case</source>
        <translation>大文字と小文字を区別(&amp;C)</translation>
    </message>
    <message>
        <source>Type a sentence to try the dictionary</source>
        <translation>文を入力して辞書を試す</translation>
    </message>
    <message>
        <source>&amp;Try:</source>
        <translation>試す(&amp;T)：</translation>
    </message>
    <message>
        <source>Spoken as:</source>
        <translation>読み上げ：</translation>
    </message>
    <message>
        <source>word</source>
        <translation>単語</translation>
    </message>
    <message>
        <source>word %1</source>
        <translation>単語 %1</translation>
    </message>
</context>
<context>
    <name>reef::ui::EngineController</name>
    <message>
        <source>cancelled: a model load was requested</source>
        <translation>キャンセルされました：モデルの読み込みが要求されました</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>モデルなし</translation>
    </message>
    <message>
        <source>loading</source>
        <translation>読み込み中</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>準備完了</translation>
    </message>
    <message>
        <source>generating</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>benchmarking</source>
        <translation>ベンチマーク中</translation>
    </message>
    <message>
        <source>quantizing</source>
        <translation>量子化中</translation>
    </message>
</context>
<context>
    <name>reef::ui::FileExport</name>
    <message>
        <source>WAV, 16-bit PCM</source>
        <translation>WAV、16 ビット PCM</translation>
    </message>
    <message>
        <source>WAV, 32-bit float</source>
        <translation>WAV、32 ビット浮動小数点</translation>
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
        <translation>%1 にエクスポートするものがありません：テイクに音声がありません</translation>
    </message>
    <message>
        <source>nothing to export: the take has no audio</source>
        <translation>エクスポートするものがありません：テイクに音声がありません</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 を作成できません</translation>
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
        <source>Open a fish-speech model folder</source>
        <translation>fish-speech のモデルフォルダーを開く</translation>
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
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>ビュー</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>プロジェクト</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>キュー</translation>
    </message>
    <message>
        <source>Export audio</source>
        <translation>音声をエクスポート</translation>
    </message>
    <message numerus="yes">
        <source>Opened %1 (%n character(s))</source>
        <translation>
            <numerusform>%1 を開きました（%n 文字）</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a text file</source>
        <translation>テキストファイルを開く</translation>
    </message>
    <message>
        <source>Text (*.txt *.md *.markdown *.text);;All files (*)</source>
        <translation>テキスト (*.txt *.md *.markdown *.text);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Cannot open the text</source>
        <translation>テキストを開けません</translation>
    </message>
    <message>
        <source>New voice from %1</source>
        <translation>%1 から新しいボイスを作成</translation>
    </message>
    <message>
        <source>Voice name:</source>
        <translation>ボイス名：</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>参照テキスト</translation>
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
        <source>Added the voice &quot;%1&quot;; pick it under Voice to speak with it.</source>
        <translation>ボイス「%1」を追加しました。「ボイス」で選ぶと、そのボイスで読み上げます。</translation>
    </message>
    <message>
        <source>&amp;New project</source>
        <translation>新規プロジェクト(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open project…</source>
        <translation>プロジェクトを開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save project</source>
        <translation>プロジェクトを保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save project &amp;as…</source>
        <translation>名前を付けてプロジェクトを保存(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;text file…</source>
        <translation>テキストファイルを開く(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Export audio…</source>
        <translation>音声をエクスポート(&amp;E)…</translation>
    </message>
    <message>
        <source>Open &amp;model folder…</source>
        <translation>モデルフォルダーを開く(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>Pronunciation &amp;dictionary…</source>
        <translation>発音辞書(&amp;D)…</translation>
    </message>
    <message>
        <source>Insert &amp;speaker tag</source>
        <translation>話者タグを挿入(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Next speaker</source>
        <translation>次の話者(&amp;N)</translation>
    </message>
    <message>
        <source>Speaker &amp;%1</source>
        <translation>話者 &amp;%1</translation>
    </message>
    <message>
        <source>&amp;Speech</source>
        <translation>音声(&amp;S)</translation>
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
        <translation>未生成のセグメントを生成(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Re-generate segment</source>
        <translation>セグメントを再生成(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel the whole queue</source>
        <translation>キュー全体をキャンセル(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Play / pause</source>
        <translation>再生/一時停止(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <source>Unsaved project</source>
        <translation>未保存のプロジェクト</translation>
    </message>
    <message>
        <source>The project “%1” has changes that are not saved. Save them first?</source>
        <translation>プロジェクト「%1」には保存されていない変更があります。先に保存しますか？</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>無題のプロジェクト</translation>
    </message>
    <message>
        <source>Open a project</source>
        <translation>プロジェクトを開く</translation>
    </message>
    <message>
        <source>Reef projects (*.reefproj);;All files (*)</source>
        <translation>Reef プロジェクト (*.reefproj);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Cannot open the project</source>
        <translation>プロジェクトを開けません</translation>
    </message>
    <message>
        <source>Save the project</source>
        <translation>プロジェクトを保存</translation>
    </message>
    <message>
        <source>Reef projects (*.reefproj)</source>
        <translation>Reef プロジェクト (*.reefproj)</translation>
    </message>
    <message>
        <source>Cannot save the project</source>
        <translation>プロジェクトを保存できません</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>形式：</translation>
    </message>
    <message>
        <source>Export the project</source>
        <translation>プロジェクトをエクスポート</translation>
    </message>
    <message>
        <source>Unknown audio format for %1.</source>
        <translation>%1 の音声形式が不明です。</translation>
    </message>
    <message>
        <source>Export each segment into a folder</source>
        <translation>各セグメントをフォルダーにエクスポート</translation>
    </message>
    <message>
        <source>Export segments</source>
        <translation>セグメントをエクスポート</translation>
    </message>
    <message>
        <source>Export every take into a folder</source>
        <translation>すべてのテイクをフォルダーにエクスポート</translation>
    </message>
    <message>
        <source>Export all takes</source>
        <translation>すべてのテイクをエクスポート</translation>
    </message>
    <message>
        <source>&lt;b&gt;The take history could not be read.&lt;/b&gt; %1&lt;br&gt;New takes are saved; the old index is kept aside, not deleted.</source>
        <translation>&lt;b&gt;テイク履歴を読み込めませんでした。&lt;/b&gt;%1&lt;br&gt;新しいテイクは保存されます。古いインデックスは削除されず、別に保管されています。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not connect to the server.&lt;/b&gt; %1%2&lt;br&gt;Check its address, protocol and key in Settings → Speech from a server, or untick it to use this computer.</source>
        <translation>&lt;b&gt;サーバーに接続できませんでした。&lt;/b&gt;%1%2&lt;br&gt;「設定 → サーバーで音声を生成」でアドレス、プロトコル、キーを確認するか、チェックを外してこのコンピューターを使ってください。</translation>
    </message>
    <message>
        <source>Speech from %1</source>
        <translation>音声の生成元：%1</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>%1 に接続しました</translation>
    </message>
    <message>
        <source>%1 items decoding together (batch size: Settings → Engine)</source>
        <translation>%1 個の項目を同時にデコード中（バッチサイズ：設定 → エンジン）</translation>
    </message>
    <message>
        <source>%1 items in this batch: %2 decode together, the others wait for a free slot (batch size: Settings → Engine)</source>
        <translation>このバッチは %1 個：%2 個を同時にデコードし、残りは空きを待ちます（バッチサイズ：設定 → エンジン）</translation>
    </message>
    <message>
        <source>%1 items in this batch: as many decode together as memory allows (batch size: Settings → Engine)</source>
        <translation>このバッチは %1 個：メモリが許す数だけ同時にデコードします（バッチサイズ：設定 → エンジン）</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model is configured&lt;/b&gt; and Reef could not create its demo model: %1&lt;br&gt;Open a fish-speech model folder (File → Open model folder…).</source>
        <translation>&lt;b&gt;モデルが設定されておらず&lt;/b&gt;、Reef はデモモデルも作成できませんでした：%1&lt;br&gt;fish-speech のモデルフォルダーを開いてください（ファイル → モデルフォルダーを開く…）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Demo model loaded.&lt;/b&gt; &quot;%1&quot; has &lt;b&gt;random weights&lt;/b&gt;: it runs the whole pipeline, but its audio is noise. For real speech, download a fish-speech S2-Pro or S1-mini model and open its folder (File → Open model folder…).</source>
        <translation>&lt;b&gt;デモモデルを読み込みました。&lt;/b&gt;「%1」の重みは&lt;b&gt;ランダム&lt;/b&gt;です：パイプライン全体は動きますが、音声はノイズです。実際の音声には、fish-speech の S2-Pro または S1-mini モデルをダウンロードし、そのフォルダーを開いてください（ファイル → モデルフォルダーを開く…）。</translation>
    </message>
    <message>
        <source>%1 weights, %2 GB in memory</source>
        <translation>%1 の重み、メモリ %2 GB</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model folder to quantize.&lt;/b&gt; Pick one in Settings → Model first.</source>
        <translation>&lt;b&gt;量子化するモデルフォルダーがありません。&lt;/b&gt;先に「設定 → モデル」で選んでください。</translation>
    </message>
    <message>
        <source>A model is being quantized</source>
        <translation>モデルを量子化しています</translation>
    </message>
    <message>
        <source>Loading the quantized copy %1</source>
        <translation>量子化したコピー %1 を読み込んでいます</translation>
    </message>
    <message>
        <source>Quanti&amp;ze model (int8/int4)…</source>
        <translation>モデルを量子化(&amp;Z) (int8/int4)…</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1: %n chapter(s)</source>
        <translation>
            <numerusform>%1 をインポートしました：%n 章</numerusform>
        </translation>
    </message>
    <message>
        <source>Import an EPUB book</source>
        <translation>EPUB ブックをインポート</translation>
    </message>
    <message>
        <source>EPUB books (*.epub);;All files (*)</source>
        <translation>EPUB ブック (*.epub);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Cannot import the book</source>
        <translation>ブックをインポートできません</translation>
    </message>
    <message>
        <source>&amp;Import EPUB as a project…</source>
        <translation>EPUB をプロジェクトとしてインポート(&amp;I)…</translation>
    </message>
    <message>
        <source>Nothing to re-decode: load a model on this computer, and pick a take that kept its codes</source>
        <translation>再デコードするものがありません：このコンピューターでモデルを読み込み、コードを保存したテイクを選んでください</translation>
    </message>
    <message>
        <source>codec from %1</source>
        <translation>%1 のコーデック</translation>
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
    <message>
        <source>Frames per second and memory over time</source>
        <translation>毎秒フレーム数とメモリの推移</translation>
    </message>
    <message>
        <source>frames/s per item</source>
        <translation>項目あたりの frames/s</translation>
    </message>
    <message>
        <source>frames/s, all items</source>
        <translation>frames/s（全項目）</translation>
    </message>
    <message>
        <source>attention: not reported (speech from a server)</source>
        <translation>アテンション：報告なし（サーバーで生成した音声）</translation>
    </message>
    <message>
        <source> · decode threads: %1 of %2</source>
        <translation> · デコードのスレッド: %1 / %2</translation>
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
    <message>
        <source>frames/s per item</source>
        <translation>項目あたりの frames/s</translation>
    </message>
</context>
<context>
    <name>reef::ui::PlaybackSink</name>
    <message>
        <source>this build has no audio player</source>
        <translation>このビルドにはオーディオプレーヤーがありません</translation>
    </message>
</context>
<context>
    <name>reef::ui::PlayerBar</name>
    <message>
        <source>Play</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>エクスポート…</translation>
    </message>
</context>
<context>
    <name>reef::ui::ProductionDialog</name>
    <message>
        <source> ms</source>
        <translation> ミリ秒</translation>
    </message>
    <message>
        <source>Podcast (−16 LUFS, −1 dBTP)</source>
        <translation>ポッドキャスト（−16 LUFS、−1 dBTP）</translation>
    </message>
    <message>
        <source>Audiobook (−18 LUFS, −3 dBTP)</source>
        <translation>オーディオブック（−18 LUFS、−3 dBTP）</translation>
    </message>
    <message>
        <source>Audiobook, quieter (−20 LUFS, −3 dBTP)</source>
        <translation>オーディオブック、控えめ（−20 LUFS、−3 dBTP）</translation>
    </message>
    <message>
        <source>Broadcast, EBU R128 (−23 LUFS, −1 dBTP)</source>
        <translation>放送、EBU R128（−23 LUFS、−1 dBTP）</translation>
    </message>
    <message>
        <source>Production</source>
        <translation>制作</translation>
    </message>
    <message>
        <source>Cast</source>
        <translation>キャスト</translation>
    </message>
    <message>
        <source>The text names no speakers. Start a speaker&apos;s lines with a tag such as &lt;|speaker:0|&gt; to give each speaker a voice.</source>
        <translation>テキストに話者がいません。話者のセリフを &lt;|speaker:0|&gt; のようなタグで始めると、話者ごとに声を割り当てられます。</translation>
    </message>
    <message>
        <source>(project default)</source>
        <translation>（プロジェクトの既定）</translation>
    </message>
    <message>
        <source>Speaker %1:</source>
        <translation>話者 %1：</translation>
    </message>
    <message>
        <source>Pauses and pace</source>
        <translation>ポーズと速さ</translation>
    </message>
    <message>
        <source>After a &amp;sentence:</source>
        <translation>文の後(&amp;S)：</translation>
    </message>
    <message>
        <source>After a c&amp;lause (, ; :):</source>
        <translation>節の後（, ; :）(&amp;L)：</translation>
    </message>
    <message>
        <source>After a &amp;paragraph:</source>
        <translation>段落の後(&amp;P)：</translation>
    </message>
    <message>
        <source>Before a c&amp;hapter:</source>
        <translation>章の前(&amp;H)：</translation>
    </message>
    <message>
        <source>Inline: &lt;tt&gt;[pause 1.5s]&lt;/tt&gt; or &lt;tt&gt;[pause 500ms]&lt;/tt&gt; in a segment sets that pause exactly (the model does not read it).</source>
        <translation>インライン：セグメント内の &lt;tt&gt;[pause 1.5s]&lt;/tt&gt; や &lt;tt&gt;[pause 500ms]&lt;/tt&gt; でそのポーズを正確に指定できます（モデルは読み上げません）。</translation>
    </message>
    <message>
        <source>Tempo without a change of pitch (Rubber Band), after synthesis</source>
        <translation>合成後にピッチを変えずにテンポを変更（Rubber Band）</translation>
    </message>
    <message>
        <source>P&amp;ace:</source>
        <translation>速さ(&amp;A)：</translation>
    </message>
    <message>
        <source>Trim each take&apos;s own silence first</source>
        <translation>各テイク自体の無音を先にカット</translation>
    </message>
    <message>
        <source>Loudness (EBU R128)</source>
        <translation>ラウドネス（EBU R128）</translation>
    </message>
    <message>
        <source>&amp;Normalize the export</source>
        <translation>エクスポートを正規化(&amp;N)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>カスタム</translation>
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
        <translation>プリセット(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>目標(&amp;T)：</translation>
    </message>
    <message>
        <source>True-peak &amp;ceiling:</source>
        <translation>トゥルーピーク上限(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Measure</source>
        <translation>測定(&amp;M)</translation>
    </message>
    <message>
        <source>Not measured yet</source>
        <translation>まだ測定していません</translation>
    </message>
    <message>
        <source>Export the book</source>
        <translation>ブックをエクスポート</translation>
    </message>
    <message>
        <source>One file per chapter too</source>
        <translation>章ごとのファイルも作成</translation>
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
        <translation>エクスポート(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>形式(&amp;F)：</translation>
    </message>
    <message>
        <source>Nothing to measure: no segment has audio yet.</source>
        <translation>測定するものがありません：どのセグメントにもまだ音声がありません。</translation>
    </message>
    <message numerus="yes">
        <source>%1 min · %2 LUFS integrated · true peak %3 dBTP · %n chapter(s)</source>
        <translation>
            <numerusform>%1 分 · 統合ラウドネス %2 LUFS · トゥルーピーク %3 dBTP · %n 章</numerusform>
        </translation>
    </message>
    <message>
        <source>Export the book into a folder</source>
        <translation>ブックをフォルダーにエクスポート</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>エクスポートしました</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) into %1.</source>
        <translation>
            <numerusform>%1 に %n 個のファイルを書き込みました。</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;Name: text&quot; lines name speakers too</source>
        <translation>「名前: テキスト」形式の行でも話者を指定する</translation>
    </message>
    <message>
        <source>A line that starts with a capitalised name and a colon is that speaker&apos;s; the name is not read</source>
        <translation>大文字で始まる名前とコロンで始まる行はその話者のものです。名前は読み上げられません</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>再生(&amp;P)</translation>
    </message>
    <message>
        <source>Play the book as these settings make it</source>
        <translation>この設定で作られるブックを再生</translation>
    </message>
    <message>
        <source>FLAC and MP3 carry chapter marks (Vorbis CHAPTER comments, ID3 CHAP frames); WAV and Ogg have none: export one file per chapter for them</source>
        <translation>FLAC と MP3 はチャプターマーク（Vorbis CHAPTER コメント、ID3 CHAP フレーム）を持てます。WAV と Ogg は持てないため、章ごとのファイルでエクスポートしてください</translation>
    </message>
    <message>
        <source>Several speakers in one segment speak together (S2 models)</source>
        <translation>1つのセグメント内の複数の話者をまとめて話す（S2 モデル）</translation>
    </message>
    <message>
        <source>A segment with several &lt;|speaker:N|&gt; tags becomes one request with each speaker&apos;s voice, as fish-speech speaks a dialogue; off, or with an S1 model, it speaks with the voice of the speaker it starts with</source>
        <translation>複数の &lt;|speaker:N|&gt; タグを含むセグメントを、各話者の声を参照にした1つのリクエストにします（fish-speech が対話を話す方法）。オフ、または S1 モデルでは、最初の話者の声で話します</translation>
    </message>
</context>
<context>
    <name>reef::ui::ProjectModel</name>
    <message>
        <source>not generated yet</source>
        <translation>未生成</translation>
    </message>
    <message>
        <source>the text changed since take %1 was made</source>
        <translation>テイク %1 の作成後にテキストが変更されました</translation>
    </message>
    <message>
        <source>take %1 of %2</source>
        <translation>テイク %1/%2</translation>
    </message>
    <message>
        <source>the speaker&apos;s voice changed since take %1 was made</source>
        <translation>テイク %1 の作成後に話者の声が変わりました</translation>
    </message>
</context>
<context>
    <name>reef::ui::ProjectView</name>
    <message>
        <source>no audio yet</source>
        <translation>音声なし</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>準備完了</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message numerus="yes">
        <source>%n take(s)</source>
        <translation>
            <numerusform>テイク %n 個</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;A project is a long text in segments.&lt;/b&gt; Paste or open a chapter, split it into sentences or paragraphs, generate them all, then re-generate just the ones you want different. Projects are saved with their audio (File → Save project).</source>
        <translation>&lt;b&gt;プロジェクトは、セグメントに分けた長いテキストです。&lt;/b&gt;章を貼り付けるか開いて文または段落に分割し、すべて生成してから、変えたいものだけを再生成します。プロジェクトは音声と一緒に保存されます（「ファイル → プロジェクトを保存」）。</translation>
    </message>
    <message>
        <source>Text to split into segments</source>
        <translation>セグメントに分割するテキスト</translation>
    </message>
    <message>
        <source>Paste a long text here, or use File → Open text file…</source>
        <translation>ここに長いテキストを貼り付けるか、「ファイル → テキストファイルを開く…」を使用してください</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>文</translation>
    </message>
    <message>
        <source>Paragraphs</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>S&amp;plit into segments</source>
        <translation>セグメントに分割(&amp;P)</translation>
    </message>
    <message>
        <source>Split &amp;at:</source>
        <translation>分割単位(&amp;A)：</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>無題のプロジェクト</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>タイトル(&amp;T)：</translation>
    </message>
    <message>
        <source>Segments</source>
        <translation>セグメント</translation>
    </message>
    <message>
        <source>&amp;Generate missing</source>
        <translation>未生成分を生成(&amp;G)</translation>
    </message>
    <message>
        <source>Queue every segment that has no audio or was edited since its take</source>
        <translation>音声のないセグメントと、テイク後に編集されたセグメントをすべてキューに追加します</translation>
    </message>
    <message>
        <source>Play &amp;project</source>
        <translation>プロジェクトを再生(&amp;P)</translation>
    </message>
    <message>
        <source>E&amp;xport project…</source>
        <translation>プロジェクトをエクスポート(&amp;X)…</translation>
    </message>
    <message>
        <source>Export s&amp;egments…</source>
        <translation>セグメントをエクスポート(&amp;E)…</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>&amp;Crossfade:</source>
        <translation>クロスフェード(&amp;C)：</translation>
    </message>
    <message>
        <source>Segment text</source>
        <translation>セグメントのテキスト</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>ボイス(&amp;V)：</translation>
    </message>
    <message>
        <source>Ta&amp;ke:</source>
        <translation>テイク(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Re-generate</source>
        <translation>再生成(&amp;R)</translation>
    </message>
    <message>
        <source>P&amp;lay segment</source>
        <translation>セグメントを再生(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Split at cursor</source>
        <translation>カーソル位置で分割(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Merge with next</source>
        <translation>次のセグメントと結合(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Insert after</source>
        <translation>後ろに挿入(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>削除(&amp;D)</translation>
    </message>
    <message>
        <source>New segment.</source>
        <translation>新しいセグメント。</translation>
    </message>
    <message numerus="yes">
        <source>%n segment(s)</source>
        <translation>
            <numerusform>セグメント %n 個</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 to generate</source>
        <translation>未生成 %1 個</translation>
    </message>
    <message>
        <source>%1 s of audio</source>
        <translation>音声 %1 秒</translation>
    </message>
    <message>
        <source>(project default)</source>
        <translation>（プロジェクトのデフォルト）</translation>
    </message>
    <message>
        <source>no takes yet</source>
        <translation>テイクなし</translation>
    </message>
    <message>
        <source>Pin current settings</source>
        <translation>現在の設定を固定</translation>
    </message>
    <message>
        <source>This segment keeps the current sampling settings and seed, whatever they become later</source>
        <translation>このセグメントは現在のサンプリング設定とシードを保持し、後で設定が変わっても影響を受けません</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>固定を解除</translation>
    </message>
    <message>
        <source>Settings:</source>
        <translation>設定：</translation>
    </message>
    <message>
        <source>the current ones (Settings → Sampling)</source>
        <translation>現在の設定（設定 → サンプリング）</translation>
    </message>
    <message>
        <source>pinned: temperature %1 · top-p %2 · top-k %3 · seed %4</source>
        <translation>固定：温度 %1 · top-p %2 · top-k %3 · シード %4</translation>
    </message>
    <message>
        <source>Made with %1</source>
        <translation>%1 で生成</translation>
    </message>
    <message>
        <source>changed since its take</source>
        <translation>テイク後に変更あり</translation>
    </message>
    <message>
        <source>speaker %1</source>
        <translation>話者 %1</translation>
    </message>
    <message>
        <source>Pr&amp;oduction…</source>
        <translation>制作(&amp;O)…</translation>
    </message>
    <message>
        <source>Cast, pauses, pace and loudness; export the book with chapters and subtitles</source>
        <translation>キャスト、ポーズ、速さ、ラウドネス。章と字幕付きでブックをエクスポート</translation>
    </message>
    <message>
        <source>no new chapter here</source>
        <translation>ここで新しい章は始まりません</translation>
    </message>
    <message>
        <source>A chapter with this title starts at this segment (chapter marks, one file per chapter)</source>
        <translation>このタイトルの章がこのセグメントから始まります（チャプターマーク、章ごとのファイル）</translation>
    </message>
    <message>
        <source>the project&apos;s</source>
        <translation>プロジェクトの設定</translation>
    </message>
    <message>
        <source>C&amp;hapter:</source>
        <translation>章(&amp;H)：</translation>
    </message>
    <message>
        <source>Pa&amp;ce:</source>
        <translation>速さ(&amp;C)：</translation>
    </message>
    <message>
        <source>Take %1 · %2 · %3 s · %4</source>
        <translation>テイク %1 · %2 · %3 秒 · %4</translation>
    </message>
    <message>
        <source>%1 LUFS</source>
        <translation>%1 LUFS</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>無音</translation>
    </message>
    <message>
        <source>another model than the one loaded now</source>
        <translation>現在読み込まれているものとは別のモデルで作成</translation>
    </message>
    <message>
        <source>Re-&amp;decode</source>
        <translation>再デコード(&amp;D)</translation>
    </message>
    <message>
        <source>Decode this take&apos;s stored codes again with the loaded model (e.g. another precision): a new take, the same speech, nothing sampled again</source>
        <translation>読み込まれたモデル（別の精度など）でこのテイクの保存済みコードを再デコードします。新しいテイクになり、音声は同じで、再サンプリングはしません</translation>
    </message>
</context>
<context>
    <name>reef::ui::PronunciationDictionary</name>
    <message>
        <source>cannot read the pronunciation dictionary %1: %2</source>
        <translation>発音辞書 %1 を読み込めません：%2</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>単語</translation>
    </message>
    <message>
        <source>Replacement</source>
        <translation>置換後</translation>
    </message>
    <message>
        <source>the file is %1 MiB; a dictionary is at most %2 MiB</source>
        <translation>ファイルサイズが %1 MiB です。辞書は最大 %2 MiB までです</translation>
    </message>
    <message>
        <source>not valid JSON (%1 at byte %2)</source>
        <translation>有効な JSON ではありません（%2 バイト目で %1）</translation>
    </message>
    <message>
        <source>not a Reef pronunciation dictionary (no &quot;format&quot;: &quot;%1&quot;)</source>
        <translation>Reef の発音辞書ではありません（&quot;format&quot;: &quot;%1&quot; がありません）</translation>
    </message>
    <message>
        <source>missing or invalid &quot;version&quot;</source>
        <translation>&quot;version&quot; がないか無効です</translation>
    </message>
    <message>
        <source>written by a newer Reef (format version %1; this one reads up to %2)</source>
        <translation>新しいバージョンの Reef で保存されています（形式バージョン %1。この Reef が読み込めるのは %2 まで）</translation>
    </message>
    <message>
        <source>&quot;caseSensitive&quot; must be true or false</source>
        <translation>&quot;caseSensitive&quot; は true または false である必要があります</translation>
    </message>
    <message>
        <source>&quot;entries&quot; must be a list</source>
        <translation>&quot;entries&quot; はリストである必要があります</translation>
    </message>
    <message>
        <source>entry %1 needs a non-empty &quot;word&quot; and a &quot;replacement&quot; text</source>
        <translation>項目 %1 には空でない &quot;word&quot; と &quot;replacement&quot; のテキストが必要です</translation>
    </message>
    <message>
        <source>entry %1: the word &quot;%2&quot; is already listed</source>
        <translation>項目 %1：単語 &quot;%2&quot; はすでに登録されています</translation>
    </message>
    <message>
        <source>cannot save the pronunciation dictionary to %1: %2</source>
        <translation>発音辞書を %1 に保存できません：%2</translation>
    </message>
</context>
<context>
    <name>reef::ui::QuantizeDialog</name>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>元：</translation>
    </message>
    <message>
        <source>New folder:</source>
        <translation>新しいフォルダー：</translation>
    </message>
    <message>
        <source>Quantize</source>
        <translation>量子化</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Use the int8 copy</source>
        <translation>int8 コピーを使う</translation>
    </message>
    <message>
        <source>Select the new folder as the model and load it</source>
        <translation>新しいフォルダーをモデルとして選び、読み込みます</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>The copy needs a folder of its own: the source stays as it is.</source>
        <translation>コピーには専用のフォルダーが必要です：元のフォルダーはそのまま残ります。</translation>
    </message>
    <message>
        <source>The engine is busy (%1): quantize when it is done.</source>
        <translation>エンジンは処理中です（%1）：終わってから量子化してください。</translation>
    </message>
    <message>
        <source>Reading the weights…</source>
        <translation>重みを読み込んでいます…</translation>
    </message>
    <message>
        <source>Quantizing: tensor %1 of %2</source>
        <translation>量子化中：テンソル %1 / %2</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>キャンセルしています…</translation>
    </message>
    <message>
        <source>Quantize the model (int8/int4)</source>
        <translation>モデルを量子化 (int8/int4)</translation>
    </message>
    <message>
        <source>Writes a copy of &lt;b&gt;%1&lt;/b&gt; whose linear layers are stored in fewer bits, as fish-speech&apos;s &lt;tt&gt;tools/llama/quantize.py&lt;/tt&gt; does: int8 with one scale per row (&lt;tt&gt;--mode int8&lt;/tt&gt;) or int4 with a scale and zero per group of weights (&lt;tt&gt;--mode int4&lt;/tt&gt;). The model folder itself is not changed.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; のコピーを、線形層を少ないビット数で保存して書き出します。fish-speech の &lt;tt&gt;tools/llama/quantize.py&lt;/tt&gt; と同じ方式です: int8 は行ごとに 1 つのスケール (&lt;tt&gt;--mode int8&lt;/tt&gt;)、int4 は重みのグループごとにスケールとゼロ点 (&lt;tt&gt;--mode int4&lt;/tt&gt;)。元のモデルフォルダーは変更されません。</translation>
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
        <translation>int8: bf16 の約半分のメモリで、bf16 に最も近い結果。int4: 約 4 分の 1 で、bf16 からやや離れます。</translation>
    </message>
    <message>
        <source>%1 weights</source>
        <translation>%1 重み</translation>
    </message>
    <message>
        <source>int4 only: how many weights share one scale and zero. A smaller group is closer to bf16 and slightly larger; it must divide every layer&apos;s inputs (32 does for fish-speech&apos;s S1 and S2 models).</source>
        <translation>int4 のみ: 1 つのスケールとゼロ点を共有する重みの数。小さいグループほど bf16 に近く、少し大きくなります。すべての層の入力数を割り切る必要があります (fish-speech の S1・S2 モデルでは 32 で割り切れます)。</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>形式:</translation>
    </message>
    <message>
        <source>Group size:</source>
        <translation>グループサイズ:</translation>
    </message>
    <message>
        <source>int4: about a quarter of bf16&apos;s memory, a bit further from bf16; a smaller group is closer to bf16 and slightly larger.</source>
        <translation>int4: bf16 の約 4 分の 1 のメモリで、bf16 からやや離れます。小さいグループほど bf16 に近く、少し大きくなります。</translation>
    </message>
    <message>
        <source>int8: about half of bf16&apos;s memory, the closest to bf16.</source>
        <translation>int8: bf16 の約半分のメモリで、bf16 に最も近い結果。</translation>
    </message>
    <message>
        <source>New folder for the quantized copy</source>
        <translation>量子化したコピーの新しいフォルダー</translation>
    </message>
    <message>
        <source>Name the new folder for the quantized copy.</source>
        <translation>量子化したコピーの新しいフォルダー名を指定してください。</translation>
    </message>
    <message>
        <source>Written to %1 (%2): the text2semantic weights went from %3 to %4.</source>
        <translation>%1 に書き出しました (%2): text2semantic の重みは %3 から %4 になりました。</translation>
    </message>
    <message>
        <source>Use the %1 copy</source>
        <translation>%1 のコピーを使う</translation>
    </message>
    <message>
        <source>Quantize the embedding tables too</source>
        <translation>埋め込みテーブルも量子化する</translation>
    </message>
    <message>
        <source>The token and codebook embeddings in the same format: S2-Pro&apos;s take 1 GB in bf16, 0.5 GB in int8, 0.27 GB in int4. fish-speech&apos;s quantize.py keeps them in bf16.</source>
        <translation>トークンとコードブックの埋め込みも同じ形式にします: S2-Pro では bf16 で 1 GB、int8 で 0.5 GB、int4 で 0.27 GB。fish-speech の quantize.py は bf16 のまま残します。</translation>
    </message>
</context>
<context>
    <name>reef::ui::QueueView</name>
    <message>
        <source>Generation queue</source>
        <translation>生成キュー</translation>
    </message>
    <message>
        <source>&amp;Cancel item</source>
        <translation>項目をキャンセル(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel &amp;all</source>
        <translation>すべてキャンセル(&amp;A)</translation>
    </message>
    <message>
        <source>C&amp;lear finished</source>
        <translation>終了した項目を消去(&amp;L)</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) waiting for the model.</source>
        <translation>
            <numerusform>%n 個の項目がモデルを待っています。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) to go</source>
        <translation>
            <numerusform>残り %n 個</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing queued. Generate adds the text here, and a project adds its segments.</source>
        <translation>キューは空です。「生成」でテキストが、プロジェクトではそのセグメントがここに追加されます。</translation>
    </message>
    <message numerus="yes">
        <source>%n done</source>
        <translation>
            <numerusform>完了 %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>失敗 %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cancelled</source>
        <translation>
            <numerusform>取消 %n 個</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>reef::ui::SecretStore</name>
    <message>
        <source>no secret store (Secret Service or KWallet) is running on this desktop</source>
        <translation>このデスクトップではシークレットストア（Secret Service または KWallet）が動いていません</translation>
    </message>
    <message>
        <source>the secret store refused access</source>
        <translation>シークレットストアがアクセスを拒否しました</translation>
    </message>
    <message>
        <source>the desktop&apos;s secret store did not answer (is a Secret Service or KWallet running?)</source>
        <translation>デスクトップのシークレットストアが応答しませんでした（Secret Service または KWallet は動いていますか？）</translation>
    </message>
    <message>
        <source>this build has no secret store support (QtKeychain)</source>
        <translation>このビルドはシークレットストア（QtKeychain）に対応していません</translation>
    </message>
</context>
<context>
    <name>reef::ui::ServerSettings</name>
    <message>
        <source>Speech from a server</source>
        <translation>サーバーで音声を生成</translation>
    </message>
    <message>
        <source>Make speech on a server instead of this computer</source>
        <translation>このコンピューターではなくサーバーで音声を生成する</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>サーバーのアドレス</translation>
    </message>
    <message>
        <source>ask the server</source>
        <translation>サーバーに問い合わせる</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>the server&apos;s default</source>
        <translation>サーバーの既定</translation>
    </message>
    <message>
        <source>OpenAI-compatible servers: the model name; Fish Audio: its model (s1, s2-pro…)</source>
        <translation>OpenAI 互換サーバー：モデル名。Fish Audio：そのモデル（s1、s2-pro…）</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>接続</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>アドレス</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>プロトコル</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Sent as &quot;Authorization: Bearer&quot;. Kept in the desktop&apos;s secret store (for this session only where there is none), never in the settings file.</source>
        <translation>「Authorization: Bearer」として送信します。デスクトップのシークレットストアに保存し（ない場合はこのセッションの間だけ保持）、設定ファイルには書きません。</translation>
    </message>
    <message>
        <source>How many queued items the server gets at once: servers that batch (SGLang-Omni, vLLM-Omni) make more speech per second with more</source>
        <translation>サーバーに同時に送るキューの項目数：バッチ処理するサーバー（SGLang-Omni、vLLM-Omni）は多いほど 1 秒あたりの音声が増えます</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>同時リクエスト数</translation>
    </message>
    <message>
        <source>Server profile</source>
        <translation>サーバープロファイル</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>名前を付けて保存…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>プロファイル</translation>
    </message>
    <message>
        <source>Save the server profile</source>
        <translation>サーバープロファイルを保存</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前：</translation>
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
        <translation>%1 %2（読み込み済み：%3）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>model folder %1</source>
        <translation>モデルフォルダー %1</translation>
    </message>
    <message>
        <source>device</source>
        <translation>デバイス</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU スレッド</translation>
    </message>
    <message>
        <source>compile mode</source>
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
        <source>Settings → Speech from a server → Key</source>
        <translation>設定 → サーバーで音声を生成 → キー</translation>
    </message>
    <message>
        <source>on</source>
        <translation>オン</translation>
    </message>
    <message>
        <source>off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>fewer threads while others are busy</source>
        <translation>ほかのプログラムが忙しい間はスレッドを減らす</translation>
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
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>インターフェース</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>システムの言語</translation>
    </message>
    <message>
        <source>A new language applies when Reef starts again.</source>
        <translation>新しい言語は Reef の次回起動時に適用されます。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Takes are kept across restarts up to this size on disk; the oldest go first</source>
        <translation>再起動後もテイクをディスク上にこのサイズまで保持します。超えた場合は古いものから削除されます</translation>
    </message>
    <message>
        <source>Take history</source>
        <translation>テイク履歴</translation>
    </message>
    <message>
        <source>A whole number from 0 to %1: the same seed and settings give the same take</source>
        <translation>0 から %1 までの整数: 同じシードと設定で同じテイクになります</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>セットアップ…</translation>
    </message>
    <message>
        <source>Install the Python that compile mode aot-inductor needs (a private venv with the matching torch, several hundred MB), the same as reef-cli compile --setup</source>
        <translation>コンパイルモード aot-inductor に必要な Python（対応する torch を含む専用 venv、数百 MB）をインストールします。reef-cli compile --setup と同じです</translation>
    </message>
    <message>
        <source>aot-inductor is ready.</source>
        <translation>aot-inductor の準備ができました。</translation>
    </message>
    <message>
        <source>Set-up failed: %1</source>
        <translation>セットアップに失敗しました：%1</translation>
    </message>
    <message>
        <source>1 (one at a time, streamed)</source>
        <translation>1（1 つずつ、ストリーミング）</translation>
    </message>
    <message>
        <source>auto (by free memory)</source>
        <translation>自動（空きメモリに応じて）</translation>
    </message>
    <message>
        <source>How many queued items (project segments) decode together on this computer: more gives more frames per second in all, each item a little slower; items in a batch are played when they are done. Each item sounds exactly as it would alone.</source>
        <translation>このコンピューターで同時にデコードするキュー項目（プロジェクトのセグメント）の数。多いほど全体の frames/s は上がり、各項目は少し遅くなります。バッチ内の項目は完了してから再生されます。各項目の音声は単独で生成した場合とまったく同じです。</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>バッチサイズ</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Setting up the Python for aot-inductor…</source>
        <translation>aot-inductor 用の Python をセットアップしています…</translation>
    </message>
    <message>
        <source>aot-inductor: %1</source>
        <translation>aot-inductor：%1</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>エンジン</translation>
    </message>
    <message>
        <source>Reload now</source>
        <translation>今すぐ再読み込み</translation>
    </message>
    <message>
        <source>Load the model again with the settings shown here</source>
        <translation>ここに表示された設定でモデルを読み込み直します</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>既定（%1）</translation>
    </message>
    <message>
        <source>%1 threads on %2 usable CPU cores: the threads take turns on the cores, and decoding runs many times slower. Pick &quot;default&quot; or at most %2.</source>
        <translation>使用できる CPU コア %2 個に %1 スレッド：スレッドがコアを奪い合い、デコードが何倍も遅くなります。「既定」か %2 以下を選んでください。</translation>
    </message>
    <message>
        <source>Speech comes from the server %1 (%2). The Engine settings below are this computer&apos;s: they apply when you load a model here again.</source>
        <translation>音声はサーバー %1（%2）で生成されています。下のエンジン設定はこのコンピューターのもので、ここでモデルを読み込み直したときに適用されます。</translation>
    </message>
    <message>
        <source>it does not say how it runs the model</source>
        <translation>モデルの実行方法は報告されていません</translation>
    </message>
    <message>
        <source>Reload needed: the loaded model runs with other settings. Changed: %1. Generate reloads first when nothing is running.</source>
        <translation>再読み込みが必要です：読み込み済みのモデルは別の設定で動いています。変更：%1。何も実行していなければ、「生成」が先に読み込み直します。</translation>
    </message>
    <message>
        <source>Smaller weights</source>
        <translation>より小さな重み</translation>
    </message>
    <message>
        <source>Quantize (int8/int4)…</source>
        <translation>量子化 (int8/int4)…</translation>
    </message>
    <message>
        <source>Write an int8 or int4 copy of the model folder (the same as reef-cli quantize): int8 takes about half of bf16&apos;s memory and stays closest to bf16; int4 about a quarter, a bit further from bf16</source>
        <translation>モデルフォルダーの int8 または int4 のコピーを書き出します (reef-cli quantize と同じ): int8 は bf16 の約半分のメモリで bf16 に最も近く、int4 は約 4 分の 1 で bf16 からやや離れます</translation>
    </message>
    <message>
        <source>%1 weights: %2 in memory</source>
        <translation>%1 重み: メモリ上 %2</translation>
    </message>
    <message>
        <source>%1 weights: %2 in memory; an int8 copy: %3, an int4 copy (group 128): %4 (Engine → Quantize (int8/int4)…)</source>
        <translation>%1 重み: メモリ上 %2、int8 のコピー: %3、int4 のコピー (グループ 128): %4 (エンジン → 量子化 (int8/int4)…)</translation>
    </message>
    <message>
        <source>Fewer while other programs are busy</source>
        <translation>ほかのプログラムが忙しい間は減らす</translation>
    </message>
    <message>
        <source>While another program keeps a core busy, every thread of a CPU frame waits for the one it holds up: decoding measures fewer threads now and then and keeps them while they are faster (the take&apos;s codes stay the same). Off: every frame uses all the threads above.</source>
        <translation>ほかのプログラムがコアを使い続けていると、CPU フレームのすべてのスレッドが足止めされたスレッドを待ちます。デコードはときどき少ないスレッド数を計測し、速い間はそれを使い続けます (テイクのコードは変わりません)。オフ: すべてのフレームで上のスレッド数をすべて使います。</translation>
    </message>
</context>
<context>
    <name>reef::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>キー</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Space&lt;/b&gt; plays or pauses unless you are typing text or a button has the focus (then Space presses it). &lt;b&gt;Tab&lt;/b&gt; and &lt;b&gt;Shift+Tab&lt;/b&gt; move between controls; &lt;b&gt;Alt&lt;/b&gt; with an underlined letter opens a menu or jumps to a field.&lt;/p&gt;&lt;p&gt;Generate works on the Synthesis tab&apos;s text; on the Project tab it generates the selected segment.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Space&lt;/b&gt; で再生または一時停止します。ただし、テキストを入力中のときやボタンにフォーカスがあるとき（Space でそのボタンが押されます）は除きます。&lt;b&gt;Tab&lt;/b&gt; と &lt;b&gt;Shift+Tab&lt;/b&gt; でコントロール間を移動し、&lt;b&gt;Alt&lt;/b&gt; と下線付きの文字でメニューを開いたり入力欄に移動したりできます。&lt;/p&gt;&lt;p&gt;「生成」は「合成」タブのテキストに対して動作します。「プロジェクト」タブでは選択中のセグメントを生成します。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>reef::ui::StudioController</name>
    <message>
        <source>Could not encode the reference clip: %1</source>
        <translation>参照音声をエンコードできませんでした：%1</translation>
    </message>
    <message>
        <source>Pronunciation dictionary not loaded: %1</source>
        <translation>発音辞書が読み込まれませんでした：%1</translation>
    </message>
    <message>
        <source>Pronunciation dictionary not saved: %1</source>
        <translation>発音辞書が保存されませんでした：%1</translation>
    </message>
    <message>
        <source>Choose a model folder first (File → Open model folder…).</source>
        <translation>先にモデルフォルダーを選んでください（ファイル → モデルフォルダーを開く…）。</translation>
    </message>
    <message>
        <source>Pronunciation dictionary: spoken as “%1”</source>
        <translation>発音辞書：「%1」と読み上げます</translation>
    </message>
    <message>
        <source>A segment was deleted while it was being generated; its audio was dropped.</source>
        <translation>生成中にセグメントが削除されたため、その音声は破棄されました。</translation>
    </message>
    <message>
        <source>Segment %1 done: %2 frames, %3 s of audio</source>
        <translation>セグメント %1 完了：%2 フレーム、音声 %3 秒</translation>
    </message>
    <message>
        <source>Done (%1): %2</source>
        <translation>完了（%1）：%2</translation>
    </message>
    <message>
        <source>Settings of take %1 are now the current ones (seed %2).</source>
        <translation>テイク %1 の設定を現在の設定にしました（シード %2）。</translation>
    </message>
    <message>
        <source>Nothing to play yet: generate it first.</source>
        <translation>まだ再生するものがありません。先に生成してください。</translation>
    </message>
    <message>
        <source>Cannot read the reference clip: %1</source>
        <translation>参照音声を読み込めません：%1</translation>
    </message>
    <message>
        <source>Opened the project %1</source>
        <translation>プロジェクト %1 を開きました</translation>
    </message>
    <message>
        <source>The project was not saved: %1</source>
        <translation>プロジェクトは保存されませんでした：%1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>無題のプロジェクト</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 に書き込みました</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) to %1</source>
        <translation>
            <numerusform>%1 に %n 個のファイルを書き込みました</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n segment(s) without audio skipped</source>
        <translation>
            <numerusform>（音声のないセグメント %n 個をスキップ）</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown audio format (use .wav, .flac, .ogg or .mp3)</source>
        <translation>不明な音声形式です（.wav、.flac、.ogg、.mp3 のいずれかを使用してください）</translation>
    </message>
    <message>
        <source>no take at row %1</source>
        <translation>%1 行目にテイクがありません</translation>
    </message>
    <message>
        <source>Could not export the audio to %1: %2. Nothing was written; the take is kept, so you can export it to another folder.</source>
        <translation>音声を %1 にエクスポートできませんでした：%2。何も書き込まれていません。テイクは保持されているので、別のフォルダーにエクスポートできます。</translation>
    </message>
    <message>
        <source>The server key is not saved (%1): Reef keeps it until it quits.</source>
        <translation>サーバーのキーは保存されていません（%1）。Reef は終了するまで保持します。</translation>
    </message>
    <message>
        <source>Give the server&apos;s address first (Settings → Speech from a server).</source>
        <translation>先にサーバーのアドレスを入力してください（設定 → サーバーで音声を生成）。</translation>
    </message>
    <message>
        <source>Reconnecting failed: the connection goes on with the key it had, shown again in Settings.</source>
        <translation>再接続に失敗しました：接続は元のキーのまま続き、設定にもそのキーを表示し直しました。</translation>
    </message>
    <message>
        <source>&lt;b&gt;These engine settings cannot run together.&lt;/b&gt; %1: %2 (Settings → Engine).</source>
        <translation>&lt;b&gt;これらのエンジン設定は同時に使えません。&lt;/b&gt;%1：%2（設定 → エンジン）。</translation>
    </message>
    <message>
        <source>Runs with the loaded model&apos;s settings; the new ones (%1) need a reload: Settings → Reload now.</source>
        <translation>読み込み済みモデルの設定で実行します。新しい設定（%1）には再読み込みが必要です：設定 → 今すぐ再読み込み。</translation>
    </message>
    <message>
        <source>Reloading the model to apply %1, then generating.</source>
        <translation>%1 を適用するためモデルを読み込み直してから生成します。</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>完了：%1</translation>
    </message>
    <message>
        <source>A segment or take was deleted while it was being re-decoded.</source>
        <translation>再デコード中にセグメントまたはテイクが削除されました。</translation>
    </message>
    <message>
        <source>Re-decoding failed: %1</source>
        <translation>再デコードに失敗しました：%1</translation>
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
        <source>Text to speak</source>
        <translation>読み上げるテキスト</translation>
    </message>
    <message>
        <source>Generation progress</source>
        <translation>生成の進行状況</translation>
    </message>
    <message>
        <source>Generation status</source>
        <translation>生成の状態</translation>
    </message>
    <message>
        <source>Sample texts</source>
        <translation>サンプルテキスト</translation>
    </message>
    <message>
        <source>Speaker %1</source>
        <translation>話者 %1</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>ボイス(&amp;V)：</translation>
    </message>
    <message>
        <source>%1× real time</source>
        <translation>%1× 実時間</translation>
    </message>
    <message>
        <source>— real time</source>
        <translation>— 実時間</translation>
    </message>
    <message>
        <source>%1 frames · %2 s elapsed · %3 · %4</source>
        <translation>%1 フレーム · 経過 %2 秒 · %3 · %4</translation>
    </message>
</context>
<context>
    <name>reef::ui::SynthesisQueue</name>
    <message>
        <source>queued</source>
        <translation>順番待ち</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>キャンセル済み</translation>
    </message>
    <message>
        <source>running %1 %</source>
        <translation>実行中 %1 %</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失敗：%1</translation>
    </message>
    <message>
        <source>batch of %1</source>
        <translation>%1 個のバッチ</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>バッチ</translation>
    </message>
    <message>
        <source>waiting for a slot in the %1</source>
        <translation>%1で空きを待機中</translation>
    </message>
    <message>
        <source>running %1 % (%2)</source>
        <translation>実行中 %1 %（%2）</translation>
    </message>
</context>
<context>
    <name>reef::ui::TakeHistory</name>
    <message>
        <source>the take history in %1 is loaded once, before any take is made</source>
        <translation>%1 のテイク履歴は、テイクを作成する前に一度だけ読み込まれます</translation>
    </message>
    <message>
        <source>cannot read the take history %1: %2</source>
        <translation>テイク履歴 %1 を読み込めません：%2</translation>
    </message>
    <message>
        <source>cannot read the take history %1: not valid JSON (%2 at byte %3); it is kept as it is</source>
        <translation>テイク履歴 %1 を読み込めません：有効な JSON ではありません（%3 バイト目で %2）。ファイルはそのまま残されます</translation>
    </message>
    <message>
        <source>cannot read the take history %1: not a Reef take history; it is kept as it is</source>
        <translation>テイク履歴 %1 を読み込めません：Reef のテイク履歴ではありません。ファイルはそのまま残されます</translation>
    </message>
    <message>
        <source>cannot read the take history %1: format version %2, this Reef reads up to %3; it is kept as it is</source>
        <translation>テイク履歴 %1 を読み込めません：形式バージョンが %2 ですが、この Reef が読み込めるのは %3 までです。ファイルはそのまま残されます</translation>
    </message>
    <message>
        <source>take %1 of the history in %2 is skipped: %3</source>
        <translation>%2 の履歴のテイク %1 をスキップしました：%3</translation>
    </message>
    <message>
        <source>its entry has no take number</source>
        <translation>項目にテイク番号がありません</translation>
    </message>
    <message>
        <source>its number is used twice</source>
        <translation>番号が 2 回使われています</translation>
    </message>
    <message>
        <source>its audio &quot;%1&quot; is not a file in the history folder</source>
        <translation>音声 &quot;%1&quot; が履歴フォルダー内のファイルではありません</translation>
    </message>
    <message>
        <source>%1 is not mono %2 Hz audio</source>
        <translation>%1 はモノラル %2 Hz の音声ではありません</translation>
    </message>
    <message>
        <source>%1 does not hold the samples the index lists</source>
        <translation>%1 にはインデックスに記載されたサンプルが含まれていません</translation>
    </message>
    <message>
        <source>take %1 is not kept in the history: cannot create the folder %2</source>
        <translation>テイク %1 は履歴に保存されません：フォルダー %2 を作成できません</translation>
    </message>
    <message>
        <source>take %1 is not kept in the history: %2</source>
        <translation>テイク %1 は履歴に保存されません：%2</translation>
    </message>
    <message>
        <source>cannot write the take history: cannot create the folder %1</source>
        <translation>テイク履歴を書き込めません：フォルダー %1 を作成できません</translation>
    </message>
    <message>
        <source>the take history %1 is unreadable and could not be set aside; new takes are not kept</source>
        <translation>テイク履歴 %1 は読み込めず、別に保管することもできませんでした。新しいテイクは保存されません</translation>
    </message>
    <message>
        <source>the unreadable take history was kept as %1; a new one was started</source>
        <translation>読み込めないテイク履歴は %1 として保管し、新しい履歴を開始しました</translation>
    </message>
    <message>
        <source>cannot write the take history %1: %2</source>
        <translation>テイク履歴 %1 を書き込めません：%2</translation>
    </message>
    <message>
        <source>cannot delete %1 from the take history</source>
        <translation>テイク履歴から %1 を削除できません</translation>
    </message>
    <message>
        <source>its sampling settings: %1</source>
        <translation>サンプリング設定: %1</translation>
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
    <message>
        <source>server %1 (%2)</source>
        <translation>サーバー %1（%2）</translation>
    </message>
    <message>
        <source>its engine settings not reported</source>
        <translation>エンジン設定の報告なし</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>無音</translation>
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
        <translation>もう一度再生</translation>
    </message>
    <message>
        <source>Export take…</source>
        <translation>テイクをエクスポート…</translation>
    </message>
    <message>
        <source>Takes</source>
        <translation>テイク</translation>
    </message>
    <message>
        <source>Re-use settings</source>
        <translation>設定を再利用</translation>
    </message>
    <message>
        <source>Make this take&apos;s sampling settings, seed and voice the current ones</source>
        <translation>このテイクのサンプリング設定、シード、ボイスを現在の設定にします</translation>
    </message>
    <message>
        <source>Export all…</source>
        <translation>すべてエクスポート…</translation>
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
