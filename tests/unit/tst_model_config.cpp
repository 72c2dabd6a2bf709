// config.json parsing (both layouts), post-init defaults, field errors, the writer, expected
// shapes (checked against the real checkpoints' parameter counts) and the key-name rules.
#include <string>

#include "check.h"
#include "reef/result.h"
#include "text2semantic/model_config.h"
#include "text2semantic/model_weights.h"

using namespace reef;

namespace {

const char* kS2Json = R"({
  "model_type": "fish_qwen3_omni",
  "text_config": {"vocab_size": 155776, "n_layer": 36, "n_head": 32, "n_local_heads": 8, "head_dim": 128,
                  "dim": 2560, "intermediate_size": 9728, "rope_base": 1000000, "norm_eps": 1e-6,
                  "max_seq_len": 32768, "tie_word_embeddings": true, "attention_qk_norm": true},
  "audio_decoder_config": {"vocab_size": 4096, "num_codebooks": 10, "n_layer": 4, "dim": 2560, "n_head": 32,
                           "n_local_heads": 8, "head_dim": 128, "intermediate_size": 9728,
                           "attention_qk_norm": false, "text_dim": 2560},
  "semantic_start_token_id": 151678, "semantic_end_token_id": 155773, "eos_token_id": 151645
})";

int64_t count_params(const ExpectedShapes& shapes) {
    int64_t n = 0;
    for (const auto& [k, s] : shapes) {
        int64_t e = 1;
        for (auto d : s) e *= d;
        n += e;
    }
    return n;
}

ErrorCode code_of(const std::string& json, std::string* message) {
    try {
        parse_model_config(json);
    } catch (const ReefError& e) {
        *message = e.what();
        return e.error().code;
    }
    return ErrorCode::Internal;
}

}  // namespace

TEST_CASE(parses_s2_nested_config) {
    const DualArConfig c = parse_model_config(kS2Json);
    CHECK(c.layout == ModelLayout::S2);
    CHECK_EQ(c.vocab_size, 155776);
    CHECK_EQ(c.n_layer, 36);
    CHECK_EQ(c.n_local_heads, 8);
    CHECK_EQ(c.head_dim, 128);
    CHECK_EQ(c.codebook_size, 4096);
    CHECK_EQ(c.num_codebooks, 10);
    CHECK_EQ(c.n_fast_layer, 4);
    CHECK_EQ(c.fast_head_dim, 128);
    CHECK(c.attention_qk_norm);
    CHECK(!c.fast_attention_qk_norm);
    CHECK(c.scale_codebook_embeddings);
    CHECK(c.norm_fastlayer_input);  // forced for S2
    CHECK(c.tie_word_embeddings);
    CHECK_EQ(c.semantic_begin_id, 151678);
    CHECK_EQ(c.semantic_end_id, 155773);
    CHECK_NEAR(c.rope_base, 1e6, 0);
    CHECK(!c.has_fast_project_in());
}

TEST_CASE(s2_expected_shapes_match_the_real_parameter_count) {
    const DualArConfig c = parse_model_config(kS2Json);
    const ExpectedShapes shapes = expected_shapes(c);
    CHECK_EQ(count_params(shapes), int64_t(4561852416));  // model.safetensors.index.json total_parameters
    CHECK(shapes.count("output.weight") == 0);
    CHECK((shapes.at("layers.0.attention.wqkv.weight") == std::vector<int64_t>{6144, 2560}));
    CHECK((shapes.at("codebook_embeddings.weight") == std::vector<int64_t>{40960, 2560}));
    CHECK(shapes.count("fast_layers.3.attention.q_norm.weight") == 0);
}

TEST_CASE(s1_mini_preset_matches_the_checkpoint_size) {
    const DualArConfig c = preset_config("s1-mini", ModelLayout::S1, 155776);
    CHECK_EQ(count_params(expected_shapes(c)), int64_t(860169216));  // spec §1.4
    CHECK((expected_shapes(c).at("fast_layers.0.attention.wqkv.weight") == std::vector<int64_t>{2048, 1024}));
    const DualArConfig s2 = preset_config("s2-pro", ModelLayout::S2, 155776);
    CHECK_EQ(count_params(expected_shapes(s2)), int64_t(4561852416));
    CHECK_EQ(s2.semantic_begin_id, 151678);
    CHECK_EQ(s2.semantic_end_id, 155773);
}

TEST_CASE(parses_s1_flat_config_with_post_init_defaults) {
    const DualArConfig c = parse_model_config(R"({"model_type": "dual_ar", "dim": 96, "n_layer": 2, "n_head": 4,
        "vocab_size": 300, "codebook_size": 64, "num_codebooks": 4, "n_fast_layer": 1, "fast_n_head": 8})");
    CHECK(c.layout == ModelLayout::S1);
    CHECK(c.s1_decoding());
    CHECK_EQ(c.n_local_heads, 4);                     // -1 -> n_head
    CHECK_EQ(c.head_dim, 64);                         // the dataclass default, not dim / n_head
    CHECK_EQ(c.intermediate_size, 256);               // find_multiple(int(2*4*96/3), 256)
    CHECK_EQ(c.fast_dim, 96);                         // fast_* default to the slow values
    CHECK_EQ(c.fast_n_head, 8);
    CHECK_EQ(c.fast_n_local_heads, 4);
    CHECK_EQ(c.fast_intermediate_size, 256);
    CHECK(!c.norm_fastlayer_input);
    CHECK(c.tie_word_embeddings);
}

TEST_CASE(bad_fields_name_the_field) {
    std::string msg;
    std::string j = kS2Json;
    const std::string missing = j.replace(j.find("\"n_head\": 32,"), 13, "");
    CHECK(code_of(missing, &msg) == ErrorCode::CorruptModel);
    CHECK(msg.find("text_config.n_head") != std::string::npos);
    CHECK(msg.find("missing") != std::string::npos);

    std::string j2 = kS2Json;
    j2.replace(j2.find("\"num_codebooks\": 10"), 19, "\"num_codebooks\": \"ten\"");
    CHECK(code_of(j2, &msg) == ErrorCode::CorruptModel);
    CHECK(msg.find("audio_decoder_config.num_codebooks") != std::string::npos);

    CHECK(code_of(R"({"model_type": "naive"})", &msg) == ErrorCode::CorruptModel);
    CHECK(msg.find("model_type") != std::string::npos);
    CHECK(code_of("{not json", &msg) == ErrorCode::CorruptModel);
    CHECK(code_of(R"({"model_type": "dual_ar", "n_head": 4, "n_local_heads": 3, "dim": 64})", &msg) ==
          ErrorCode::CorruptModel);
    CHECK(msg.find("n_local_heads") != std::string::npos);
}

TEST_CASE(writer_round_trips_both_layouts) {
    for (ModelLayout layout : {ModelLayout::S2, ModelLayout::S1}) {
        DualArConfig c = preset_config("tiny", layout, 4200);
        c.max_seq_len = 4093;  // written rounded up to a multiple of 8
        const std::string text = model_config_to_json(c);
        CHECK(text.find("\"head_dim\"") != std::string::npos);
        const DualArConfig r = parse_model_config(text);
        CHECK(r.layout == layout);
        CHECK_EQ(r.max_seq_len, 4096);
        CHECK_EQ(r.dim, c.dim);
        CHECK_EQ(r.head_dim, c.head_dim);
        CHECK_EQ(r.n_local_heads, c.n_local_heads);
        CHECK_EQ(r.fast_head_dim, c.fast_head_dim);
        CHECK_EQ(r.vocab_size, 4200);
        if (layout == ModelLayout::S2) {  // S1's flat config carries no semantic ids (d3df505 rejects them)
            CHECK_EQ(r.semantic_begin_id, c.semantic_begin_id);
            CHECK_EQ(r.semantic_end_id, c.semantic_end_id);
        } else {
            CHECK(text.find("semantic_begin_id") == std::string::npos);
            CHECK(text.find("norm_fastlayer_input") == std::string::npos);
        }
        CHECK(r.tie_word_embeddings == c.tie_word_embeddings);
        CHECK(r.attention_qk_norm && !r.fast_attention_qk_norm);
        CHECK(r.norm_fastlayer_input == (layout == ModelLayout::S2));
        CHECK(expected_shapes(r) == expected_shapes(c));
    }
    CHECK_THROWS(preset_config("huge", ModelLayout::S2, 100));
}

TEST_CASE(s2_key_remap_and_its_inverse) {
    TensorMap hf;
    for (const char* k : {"text_model.model.layers.3.attention.wqkv.weight", "text_model.model.norm.weight",
                          "audio_decoder.codebook_embeddings.weight", "audio_decoder.embeddings.weight",
                          "audio_decoder.layers.1.ffn_norm.weight", "audio_decoder.output.weight", "other.key"})
        hf[k] = at::zeros({1});
    const TensorMap m = remap_fish_qwen3_omni_keys(hf);
    for (const char* k : {"layers.3.attention.wqkv.weight", "norm.weight", "codebook_embeddings.weight",
                          "fast_embeddings.weight", "fast_layers.1.ffn_norm.weight", "fast_output.weight", "other.key"})
        CHECK(m.count(k) == 1);
    TensorMap internal = m;
    internal.erase("other.key");
    const TensorMap back = to_fish_qwen3_omni_keys(internal);
    hf.erase("other.key");
    CHECK_EQ(back.size(), hf.size());
    for (const auto& [k, v] : hf) CHECK(back.count(k) == 1);
    // internal names pass through untouched
    TensorMap plain{{"layers.0.ffn_norm.weight", at::zeros({1})}};
    CHECK(remap_fish_qwen3_omni_keys(plain).count("layers.0.ffn_norm.weight") == 1);
}

TEST_CASE(pth_key_rules_and_split_qkv) {
    TensorMap w{{"state_dict.model.layers.0.attention.wq.weight", at::ones({4, 2})},
                {"state_dict.model.layers.0.attention.wk.weight", 2 * at::ones({2, 2})},
                {"state_dict.model.layers.0.attention.wv.weight", 3 * at::ones({2, 2})},
                {"state_dict.model.audio_projector.weight", at::ones({1})},
                {"state_dict.model.norm.weight", at::ones({2})}};
    TensorMap n = normalize_pth_keys(std::move(w));
    CHECK(n.count("norm.weight") == 1);
    CHECK(n.count("audio_projector.weight") == 0);
    merge_split_qkv(n);
    CHECK(n.count("layers.0.attention.wq.weight") == 0);
    const at::Tensor qkv = n.at("layers.0.attention.wqkv.weight");
    CHECK_EQ(qkv.size(0), 8);
    CHECK_NEAR(qkv[0][0].item<float>(), 1, 0);
    CHECK_NEAR(qkv[4][0].item<float>(), 2, 0);
    CHECK_NEAR(qkv[7][1].item<float>(), 3, 0);
}

TEST_MAIN()
