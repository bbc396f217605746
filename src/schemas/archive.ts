import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";

/** `POST /v1/admin/archive` (docs/operations.md, "Archive"): archive now what ended before `before`. */
export const ArchiveBody = z
  .object({
    before: z.iso.datetime({ offset: true }).openapi({
      description: "ISO 8601: ended quotes (either kind) that ended before it leave D1 for the archive",
      example: "2026-11-22T10:00:00.000Z",
    }),
  })
  .openapi("ArchiveBody");

export const ArchiveResult = z
  .object({
    archived: z.number().int().openapi({ description: "quotes this run wrote to the archive and deleted from D1" }),
    more: z.boolean().openapi({ description: "the run stopped at its bound with more to archive: run it again" }),
    completeFrom: Timestamp.nullable().openapi({ description: "lists of quotes are complete after this time" }),
  })
  .openapi("ArchiveResult");
