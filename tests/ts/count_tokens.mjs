// Counts real BPE tokens (gpt-tokenizer's bundled o200k_base and cl100k_base ranks) for rtk's
// token-estimator calibration (scripts/calibrate_tokens.py) and test (tests/test_tokens_real.py).
// stdin: a JSON array of strings; stdout: a JSON array of [o200k, cl100k] counts, one per string.
import { readFileSync } from "node:fs";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { encode as cl100k } from "gpt-tokenizer/encoding/cl100k_base";

const texts = JSON.parse(readFileSync(0, "utf8"));
const opts = { disallowedSpecial: new Set() };
process.stdout.write(JSON.stringify(texts.map((t) => [o200k(t, opts).length, cl100k(t, opts).length])));
