// The built-in training text of the demo BPE (our own sentences; English first, then a few other
// scripts so multilingual text keeps some merged tokens). Changing it changes every demo id.
#pragma once

namespace reef {

inline constexpr const char* kDemoBpeSampleText = R"(The studio opens in the morning, when the light is soft and the room is quiet.
We read the text aloud, listen to the voice, and change the speed of the speech until it sounds right.
A good reference clip is short and clean: one speaker, no music, no noise in the background.
Then the model turns the text into tokens, the tokens into codes, and the codes into sound.
If the voice is too fast, we try again with a lower temperature and a longer pause between the sentences.
She said that the weather would be better tomorrow, and that we should meet near the harbour at ten.
There are three things to remember: speak slowly, breathe between the lines, and smile when you talk.
The quick brown fox jumps over the lazy dog, and then it runs back into the forest before the rain.
Numbers like 2024, 3.14 and 100% are read one digit at a time, so the model never sees a long number.
Questions end with a question mark? Exclamations end with a bang! Lists use commas, colons and dashes.
"Hello," he said. "It's good to hear you again; I've missed these long talks we'd have at night."
In the evening the recording is finished, the files are saved, and everyone goes home to rest.
今天天气很好，我们一起去公园散步吧。声音合成的模型需要很多数据。
こんにちは、今日はいい天気ですね。音声合成のモデルを作っています。
Der Sprecher liest den Text langsam und deutlich vor, damit jeder ihn gut verstehen kann.
La voix est claire et douce; elle lit le texte avec une belle intonation française.
El estudio está abierto todos los días, y la música suena muy bien por la mañana.
Голос звучит спокойно и ясно, и мы слушаем его каждый день.
안녕하세요, 오늘은 날씨가 좋네요. 음성 합성 모델을 만들고 있어요.
Emoji too: 🙂 🎙️ 🐟 — and symbols like € £ ¥ © ™ … are bytes like everything else.
)";

}  // namespace reef
