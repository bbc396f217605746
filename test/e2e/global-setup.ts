import type { TestProject } from "vitest/node";
import { localConfig } from "../../src/config/local";
import { startRelay } from "./harness";

declare module "vitest" {
  export interface ProvidedContext {
    relayUrl: string;
  }
}

/** One relay for the whole e2e project, started fresh and stopped at the end. */
export default async function setup(project: TestProject) {
  // No corridor asks the oracle for a band, so the e2e relay never polls the public rate sources.
  const config = { ...localConfig, oracle: { ...localConfig.oracle, corridors: [] } };
  const relay = await startRelay({ vars: { RELAY_CONFIG: JSON.stringify(config) } });
  project.provide("relayUrl", relay.url);
  return () => relay.stop();
}
