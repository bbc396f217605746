/**
 * `npm run measure:quote-path`: the files of `src/` and `durable-objects/` whose code a quote can run, from
 * `POST /v1/quotes` in the Worker to the corridor object's auction and back (docs/architecture.md, "The walk
 * of a quote"), found from the source alone, so the count can be made again on any tree.
 * `npm run measure:quote-path -- --why src/x.ts` prints how the walk got to a file.
 *
 * It follows what the code names, not whole files: from the app's middleware, the route's handler and the
 * request its validator checks, and `CorridorDO.quote`, each function or method a reached body calls is
 * reached in turn, through the folders' faces (which re-export and run nothing). A call through a port (an
 * interface member) reaches the same-named member of every class and object literal of the tree that fits
 * the interface. A value built before the quote (a constant, a field, a part the object built at its
 * start) is not built again: only the functions it holds are reached, when a reached body names them or
 * calls them through a port. Types run nothing and are not followed. A file counts when a function of it
 * is reached. Being static, the walk takes every branch (both chain kinds, every refusal), so the count
 * bounds what one quote runs rather than measuring it.
 */
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";
import { codeReach, isFunctionLike, nameOf } from "./lib/code-reach";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const APP = resolve(ROOT, "src/app.ts");
const ROUTE = resolve(ROOT, "src/routes/quotes.ts");
const CORRIDOR = resolve(ROOT, "durable-objects/corridor.ts");

const parsed = ts.getParsedCommandLineOfConfigFile(
  resolve(ROOT, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
  },
);
if (!parsed) fail("tsconfig.json did not parse");
const program = ts.createProgram([APP, ROUTE, CORRIDOR], parsed.options);
// Binding the files gives their nodes the parents the entries' text is read through.
program.getTypeChecker();

function fail(message: string): never {
  throw new Error(message);
}

/** The Worker's own code: the reference clients are programs of their own. */
function inTree(node: ts.Node): boolean {
  const path = relative(ROOT, node.getSourceFile().fileName);
  return (path.startsWith("src/") || path.startsWith("durable-objects/")) && !path.startsWith("src/clients/");
}

function entries(): ts.Node[] {
  const found: ts.Node[] = [];
  const source = (path: string) => program.getSourceFile(path) ?? fail(`no ${path}`);
  const each = (path: string, visit: (node: ts.Node) => void) =>
    ts.forEachChild(source(path), function walk(node): void {
      visit(node);
      ts.forEachChild(node, walk);
    });
  // The app's middleware every request passes: `app.use(handler)` with no path.
  each(APP, (node) => {
    if (ts.isCallExpression(node) && node.getText().startsWith("app.use(") && node.arguments.length === 1) {
      found.push(node.arguments[0] as ts.Node);
    }
  });
  // The route's handler, and the request its validator checks.
  each(ROUTE, (node) => {
    if (!ts.isCallExpression(node) || node.arguments.length !== 2) return;
    const [route, handler] = node.arguments as unknown as [ts.Node, ts.Node];
    if (!/path: "\/v1\/quotes",/.test(route.getText()) || !/method: "post"/.test(route.getText())) return;
    found.push(handler);
    ts.forEachChild(route, function request(n): void {
      if (ts.isPropertyAssignment(n) && nameOf(n) === "request") found.push(n.initializer);
      ts.forEachChild(n, request);
    });
  });
  // The object's door for a quote.
  each(CORRIDOR, (node) => {
    if (ts.isMethodDeclaration(node) && nameOf(node) === "quote") found.push(node);
  });
  if (found.length < 3) fail(`found ${found.length} entry points: have the app, the route or the object moved?`);
  return found;
}

const { codeFiles, via } = codeReach(program, inTree, entries());

const rel = (file: string) => relative(ROOT, file);
const unitOf = (file: string) => {
  const parts = file.split("/");
  return parts[0] === "durable-objects" ? "durable-objects/" : parts.length > 2 ? `src/${parts[1]}/` : file;
};

const why = process.argv.indexOf("--why");
if (why >= 0) {
  const target = resolve(ROOT, process.argv[why + 1] ?? fail("--why needs a file"));
  const inFile = [...via.keys()].filter((n) => n.getSourceFile().fileName === target);
  const first = inFile.find(isFunctionLike) ?? inFile[0];
  if (!first) fail(`${rel(target)} is not on the path`);
  for (let n: ts.Node | undefined = first; n; n = via.get(n)) {
    const { line } = n.getSourceFile().getLineAndCharacterOfPosition(n.getStart());
    console.log(`${rel(n.getSourceFile().fileName)}:${line + 1}  ${n.getText().split("\n")[0]?.slice(0, 90)}`);
  }
  process.exit(0);
}

const code = [...codeFiles].map(rel).sort();
const units = new Map<string, string[]>();
for (const file of code) units.set(unitOf(file), [...(units.get(unitOf(file)) ?? []), file]);
console.log(`${code.length} files in ${units.size} units hold code a quote can run`);
// Both chain kinds are reached through the registry; a quote runs one.
for (const kind of new Set(code.map((f) => f.match(/^src\/chains\/(\w+)\//)?.[1]).filter((k) => k))) {
  console.log(`  of them src/chains/${kind}/: ${code.filter((f) => f.startsWith(`src/chains/${kind}/`)).length}`);
}
for (const [unit, files] of [...units].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
  console.log(`\n${unit} ${files.length}`);
  for (const file of files) console.log(`  ${file}`);
}
