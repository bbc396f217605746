import type { TestProject } from "vitest/node";
import { startRelay } from "./harness";

declare module "vitest" {
  export interface ProvidedContext {
    relayUrl: string;
  }
}

/** One relay for the whole e2e project, started fresh and stopped at the end. */
export default async function setup(project: TestProject) {
  const relay = await startRelay();
  project.provide("relayUrl", relay.url);
  return () => relay.stop();
}
