import { createRoute } from "@hono/zod-openapi";
import { archiveCutoffs, archivePassOver } from "../archive";
import { recordsDatabases } from "../config";
import { listsCompleteFromAll } from "../db";
import { createRouter } from "../http";
import { ArchiveBody, ArchiveResult, errorResponses, jsonContent } from "../schemas";
import { requireAdmin, security } from "./admin";

const router = createRouter();
router.use("/v1/admin/archive", requireAdmin);

/**
 * The archive job run now by the operator (docs/operations.md, "Archive"): every ended quote that ended
 * before `before` leaves D1 for R2, whatever its kind's retention, a bounded run at a time, in every
 * records database (docs/capacity.md, "Records by corridor").
 */
export const archiveRoutes = router.openapi(
  createRoute({
    method: "post",
    path: "/v1/admin/archive",
    operationId: "archiveNow",
    tags: ["admin"],
    summary: "Archive now the quotes that ended before a time",
    security,
    request: { body: { required: true, content: { "application/json": { schema: ArchiveBody } } } },
    responses: { 200: jsonContent(ArchiveResult, "What this run archived"), ...errorResponses(400, 401, 429) },
  }),
  async (c) => {
    const { before } = c.req.valid("json");
    // `before` is excluded: the job takes what ended at or before its cutoff.
    const cutoff = new Date(Date.parse(before) - 1).toISOString();
    const { ids } = archiveCutoffs(c.get("config").retention, Date.now());
    const dbs = recordsDatabases(c.env, c.get("config")).all;
    const run = await archivePassOver(dbs, c.env.ARCHIVE, { unsubmitted: cutoff, submitted: cutoff, ids });
    const archived = [...run.unsubmitted, ...run.submitted].reduce((n, b) => n + b, 0);
    return c.json({ archived, more: run.more, completeFrom: await listsCompleteFromAll(dbs) }, 200);
  },
);
