import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { corridorUpgrade } from "./evm-chain";

/**
 * A resolver socket on `wrangler dev`, byte for byte (docs/resolver-protocol.md, "Authentication"; "Keep-alive"):
 * the runtime's own pong, and the close frame that follows `error timeout` for a node that never authenticates.
 */

interface Frame {
  opcode: number;
  text: string;
  at: number;
}

/** Opens a resolver socket with a bare HTTP upgrade and collects the server's frames (unmasked) as they come. */
function openSocket(): Promise<{ socket: Socket; frames: Frame[]; send: (text: string) => void }> {
  return new Promise((resolve, reject) => {
    const req = corridorUpgrade("198.51.100.60");
    req.on("upgrade", (_res, socket, head) => {
      const frames: Frame[] = [];
      let buffer = Buffer.from(head);
      // The server's first frame can come in the same read as its 101 answer (`head`): it is read at once,
      // not left until the next chunk, which for a socket that never authenticates is its timeout 5 s on.
      const drain = () => {
        for (;;) {
          if (buffer.length < 2) return;
          const opcode = (buffer[0] as number) & 0x0f;
          let length = (buffer[1] as number) & 0x7f;
          let offset = 2;
          if (length === 126) {
            if (buffer.length < 4) return;
            length = buffer.readUInt16BE(2);
            offset = 4;
          }
          if (buffer.length < offset + length) return;
          const payload = buffer.subarray(offset, offset + length);
          frames.push({
            opcode,
            text: opcode === 8 ? payload.subarray(2).toString() : payload.toString(),
            at: Date.now(),
          });
          buffer = buffer.subarray(offset + length);
        }
      };
      socket.on("data", (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        drain();
      });
      drain();
      // A client's frames are masked (RFC 6455): the payload XORed with a 4-byte key sent before it.
      const send = (text: string) => {
        const payload = Buffer.from(text);
        const mask = Buffer.from(crypto.getRandomValues(new Uint8Array(4)));
        const masked = payload.map((b: number, i: number) => b ^ (mask[i % 4] as number));
        socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(masked)]));
      };
      resolve({ socket, frames, send });
    });
    req.on("response", (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
    req.on("error", reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
}

describe("a resolver socket on wrangler dev", () => {
  it("is answered pong for the exact ping bytes and for a ping with spaces", async () => {
    const { socket, frames, send } = await openSocket();
    await until(() => frames.length > 0, 5_000);
    send('{"type":"ping"}');
    send('{"type": "ping"}');
    await until(() => frames.filter((f) => f.text === '{"type":"pong"}').length === 2, 3_000);
    expect(frames.map((f) => f.text)).toEqual([
      expect.stringContaining('"challenge"'),
      '{"type":"pong"}',
      '{"type":"pong"}',
    ]);
    socket.destroy();
  });

  it("closes a socket that never authenticates right after its error timeout, with no frame from the node", async () => {
    const { socket, frames } = await openSocket();
    await until(() => frames.some((f) => f.opcode === 8), 15_000);
    const error = frames.find((f) => f.text.includes('"timeout"'));
    const closed = frames.find((f) => f.opcode === 8);
    socket.destroy();
    expect(error).toBeDefined();
    expect(closed?.text).toBe("timeout");
    expect((closed?.at ?? Number.POSITIVE_INFINITY) - (error?.at ?? 0)).toBeLessThan(1_000);
  });
});
