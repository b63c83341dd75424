import assert from "node:assert/strict";
import { better, doubtful, scoreText } from "../../../src/sources/pdf/text_quality.ts";

/** Cyrillic whose UTF-8 bytes were read two at a time as UTF-16 units (a broken ToUnicode CMap). */
function misread(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = "";
  for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
  return out;
}

Deno.test("a text with enough ordinary letters is not doubted", () => {
  const page = "Deep venous thrombosis prophylaxis is essential to the management of trauma patients.";
  assert.equal(doubtful(scoreText([page]), 1), false);
  assert.equal(doubtful(scoreText(["Масса Масштаб Формат A4 Лист Листов Изм."]), 1), false);
  assert.equal(doubtful(scoreText(["지식 기반 소개와 주요 내용, 한국어 문서의 본문입니다."]), 1), false);
});

Deno.test("a thin or garbled text is doubted, and the reading with more good characters is better", () => {
  assert.equal(doubtful(scoreText(["", "  \n"]), 2), true, "no text");
  const broken = scoreText([misread("МасшМасшМасштаб")]);
  assert.ok(broken.garbled / broken.chars > 0.9, "UTF-8 byte pairs read as UTF-16 count as garbled");
  assert.equal(doubtful(broken, 0), true);
  assert.equal(doubtful(scoreText(["\uFFFD\uFFFD\uE001\uE002 text"]), 0), true, "replacement and private-use codes");
  assert.equal(better(scoreText(["МасшМасшМасштаб"]), broken), true);
  assert.equal(better(scoreText(["scan"]), scoreText(["scan"])), false, "a tie keeps the first reading");
});
