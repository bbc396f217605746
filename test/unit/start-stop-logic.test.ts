import { type AddressInfo, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { type Ancestor, launchersToWatch } from "../../scripts/lib/launcher";
import { describeListeners, parseLsofListeners, parseSsListeners } from "../../scripts/lib/listeners";
import { freePort } from "../../scripts/lib/processes";
import { reachHost, unreachableLine, unreachableSources, withoutSources } from "../../scripts/lib/source-reach";
import {
  DEFAULT_CYCLES,
  descendants,
  parseCycles,
  parsePs,
  problemLines,
  scriptProcess,
} from "../../scripts/lib/start-check";
import { localConfig } from "../../src/config/local";

describe("the launchers npm start watches", () => {
  const npmChain: [Ancestor, Ancestor, Ancestor, Ancestor] = [
    { pid: 40, ppid: 30, args: "node /repo/node_modules/.bin/tsx scripts/start.ts" },
    { pid: 30, ppid: 20, args: "sh -c tsx scripts/start.ts" },
    { pid: 20, ppid: 10, args: "npm start" },
    { pid: 10, ppid: 1, args: "-bash" },
  ];

  it("are tsx, sh and npm under npm, never the shell above npm", () => {
    expect(launchersToWatch(npmChain, true)).toEqual([40, 30, 20]);
    const cli = [
      npmChain[0],
      npmChain[1],
      { pid: 20, ppid: 10, args: "node /usr/lib/node_modules/npm/bin/npm-cli.js start" },
    ];
    expect(launchersToWatch(cli, true)).toEqual([40, 30, 20]);
  });

  it("are tsx alone when no npm runs it, and nothing under a plain shell (nohup keeps working)", () => {
    expect(launchersToWatch([npmChain[0], npmChain[3]], false)).toEqual([40]);
    expect(launchersToWatch([{ pid: 10, ppid: 1, args: "-bash" }], false)).toEqual([]);
    expect(launchersToWatch([{ pid: 10, ppid: 1, args: "-bash" }], true)).toEqual([]);
  });
});

describe("who listens on a port", () => {
  it("reads ss's and lsof's answers, and says so when no one can be named", () => {
    const ss = 'LISTEN 0 511 127.0.0.1:8787 0.0.0.0:* users:(("workerd",pid=1422,fd=20),("workerd",pid=1422,fd=21))';
    expect(parseSsListeners(ss)).toEqual([
      { command: "workerd", pid: 1422 },
      { command: "workerd", pid: 1422 },
    ]);
    expect(parseLsofListeners("p1198\ncanvil\nf12\n")).toEqual([{ pid: 1198, command: "anvil" }]);
    expect(describeListeners([{ pid: 1198, command: "anvil" }])).toBe("anvil (pid 1198)");
    expect(describeListeners([])).toMatch(/cannot name/);
  });
});

describe("the oracle's sources npm start cannot reach", () => {
  it("asks each host once, skips loopback, and gives each source its host's reason", async () => {
    const asked: string[] = [];
    const unreachable = await unreachableSources(localConfig.oracle.sources, async (host, port) => {
      asked.push(`${host}:${port}`);
      return "does not resolve";
    });
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.some((h) => h.startsWith("127.0.0.1"))).toBe(false);
    expect([...unreachable.keys()]).toEqual(
      localConfig.oracle.sources.filter((s) => !s.url.startsWith("http://127.0.0.1")).map((s) => s.name),
    );
    expect([...unreachable.values()].every((r) => r.endsWith(" does not resolve"))).toBe(true);
  });

  it("leaves them out of the configuration while the local sources keep every band, and says so in one line", () => {
    const publicNames = new Set(
      localConfig.oracle.sources.filter((s) => !s.name.startsWith("local")).map((s) => s.name),
    );
    const reduced = withoutSources(localConfig, publicNames);
    expect(reduced?.oracle.sources.map((s) => s.name)).toEqual(["local", "local-eth", "local-sol"]);
    expect(reduced?.oracle.corridors).toEqual(localConfig.oracle.corridors);
    const line = unreachableLine(new Map([...publicNames].map((n) => [n, "x.example does not resolve"])), ["local"]);
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain(`${publicNames.size} of the oracle's sources cannot be reached`);
  });

  it("asks a real host: a name that does not resolve, a closed port, an open one", async () => {
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const open = (server.address() as AddressInfo).port;
    try {
      expect(await reachHost("relay-check.invalid", 443)).toBe("does not resolve");
      expect(await reachHost("127.0.0.1", await freePort())).toBe("ECONNREFUSED");
      expect(await reachHost("127.0.0.1", open)).toBeNull();
    } finally {
      server.close();
    }
  });

  it("keeps them when a corridor would have no source left", () => {
    const all = new Set(localConfig.oracle.sources.filter((s) => s.name !== "local-eth").map((s) => s.name));
    expect(withoutSources(localConfig, all)).toBeNull();
    expect(unreachableLine(new Map([["luno", "api.luno.com does not resolve"]]), null)).toMatch(/the relay polls them/);
  });
});

describe("the start-and-stop check", () => {
  it("runs three SIGTERM stops, a SIGINT, SIGHUPs and a SIGKILL by default, and refuses a bad entry", () => {
    const cycles = parseCycles(DEFAULT_CYCLES);
    expect(cycles.filter((c) => c.signal === "SIGTERM")).toHaveLength(3);
    expect(cycles.some((c) => c.signal === "SIGINT")).toBe(true);
    expect(cycles.some((c) => c.signal === "SIGHUP" && c.to === "npm")).toBe(true);
    expect(() => parseCycles("STOP:npm")).toThrow(/not SIGNAL:TARGET/);
    expect(parseCycles("KILL:script")).toEqual([{ signal: "SIGKILL", to: "script" }]);
  });

  it("counts workerd's and wrangler's errors and stack traces, and no ordinary line", () => {
    const log = [
      "[relay] \u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m e = rust/worker/ffi.rs:104: failed",
      "[relay]   stack: /bin/workerd@3d4d979 /bin/workerd@2b5edc0",
      "[relay] Error: getaddrinfo ENOTFOUND workers.cloudflare.com",
      "[relay]     at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)",
      "[relay] ERROR push_failed component=oracle",
      "[relay] GET /v1/config 200 8ms (e8c77b28)",
      "[alpha] decline r_1: no_inventory",
      "11 of the oracle's sources cannot be reached from here (quidax; app.quidax.io does not resolve)",
    ].join("\n");
    expect(problemLines(log)).toHaveLength(5);
  });

  it("finds every process below npm, and the one that runs the script", () => {
    const rows = parsePs(
      [
        " 20 1 npm start",
        " 30 20 sh -c tsx scripts/start.ts",
        " 40 30 node /r/node_modules/.bin/tsx scripts/start.ts",
        " 50 40 node --require /r/tsx/dist/preflight.cjs --import file:///r/tsx/dist/loader.mjs scripts/start.ts",
        " 60 50 /r/anvil --port 8545",
        " 70 1 -bash",
      ].join("\n"),
    );
    const below = descendants(rows, 20);
    expect(below.sort()).toEqual([20, 30, 40, 50, 60]);
    expect(scriptProcess(rows, below)).toBe(50);
  });
});
