import { z } from "zod";

/** An amount in base units, as a decimal string (docs/resolver-protocol.md). */
export const amount = z.string().regex(/^(0|[1-9]\d*)$/);
export const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
