import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOCUMENTED_ERROR_CODES } from "../support/error-codes";

const docs = ["docs/api.md", "docs/settlement.md"].map((p) => readFileSync(p, "utf8")).join("\n");

describe("documented error codes", () => {
  it.each(DOCUMENTED_ERROR_CODES)("%s is documented", (code) => {
    expect(docs).toContain(`\`${code}\``);
  });
});
