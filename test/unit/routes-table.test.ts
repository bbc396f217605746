import { describe, expect, it } from "vitest";
import { allowedMethods } from "../../src/http/routes-table";

const routes = [
  { method: "ALL", path: "*" },
  { method: "GET", path: "/v1/quotes/:id" },
  { method: "POST", path: "/v1/quotes" },
  { method: "POST", path: "/v1/quotes/:id/cancel" },
];

describe("allowedMethods", () => {
  it("lists the methods of the routes matching a path", () => {
    expect(allowedMethods(routes, "/v1/quotes/q_1")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods(routes, "/v1/quotes")).toEqual(["POST"]);
    expect(allowedMethods(routes, "/v1/quotes/q_1/cancel")).toEqual(["POST"]);
  });

  it("is empty for a path no route has", () => {
    expect(allowedMethods(routes, "/v1/quotes/a/b")).toEqual([]);
    expect(allowedMethods(routes, "/v2/quotes")).toEqual([]);
  });
});
