import { MAX_FRAMES_PER_SECOND } from "../protocol";

/** Counts a socket's frames in fixed one-second windows; over the limit, the socket is closed. */
export class FrameLimiter {
  private windowStart = 0;
  private count = 0;

  constructor(private readonly limit = MAX_FRAMES_PER_SECOND) {}

  /** Records one frame at `now` (ms); false when it exceeds the limit for the current second. */
  allow(now: number): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count++;
    return this.count <= this.limit;
  }
}
