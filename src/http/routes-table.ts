/** Matches a path against the router's route patterns, to tell 405 from 404. */
export interface RouteEntry {
  method: string;
  path: string;
}

const compiled = new Map<string, RegExp>();

function patternOf(path: string): RegExp {
  let re = compiled.get(path);
  if (!re) {
    const source = path
      .split("/")
      .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    re = new RegExp(`^${source}/?$`);
    compiled.set(path, re);
  }
  return re;
}

/** The methods that some route answers for `path`; empty when no route has this path. */
export function allowedMethods(routes: readonly RouteEntry[], path: string): string[] {
  const methods = new Set<string>();
  for (const r of routes) {
    if (r.method === "ALL" || r.path === "/*") continue;
    if (patternOf(r.path).test(path)) methods.add(r.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
