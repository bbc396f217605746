import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { envFileText } from "../../scripts/lib/local-stack";

describe("the relay's variables file (secrets stay off the command line)", () => {
  it("reads back exactly what was written, JSON included", () => {
    const vars = { RELAY_CONFIG: JSON.stringify({ a: "b c", d: [1, 2] }), KEEPER_PRIVATE_KEY: `0x${"ab".repeat(32)}` };
    expect(parseEnv(envFileText(vars))).toEqual(vars);
  });

  it("refuses a value it could not write literally, and a name that is not a variable", () => {
    expect(() => envFileText({ X: "it's" })).toThrow(/quote or a newline/);
    expect(() => envFileText({ X: "a\nb" })).toThrow(/quote or a newline/);
    expect(() => envFileText({ "A B": "x" })).toThrow(/not a variable name/);
  });
});
