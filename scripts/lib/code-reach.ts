/**
 * What code a set of entry points can run, found from the source alone (scripts/quote-path-files.ts says
 * how the walk goes): `inTree` says which files count, and `via` the node each node was reached from.
 */
import ts from "typescript";

export const isFunctionLike = (node: ts.Node): boolean =>
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isAccessor(node);

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
    ? unwrap(node.expression)
    : node;

export const nameOf = (node: ts.Node): string | undefined => {
  const name = (node as { name?: ts.Node }).name;
  return name && ts.isIdentifier(name) ? name.text : undefined;
};

export interface CodeReach {
  /** The files holding a reached function. */
  codeFiles: Set<string>;
  via: Map<ts.Node, ts.Node | undefined>;
}

/** The code `entries` can run, through what each reached body names and the ports it calls. */
export function codeReach(program: ts.Program, inTree: (node: ts.Node) => boolean, entries: ts.Node[]): CodeReach {
  const checker = program.getTypeChecker();

  /** A piece of code run now (`run`), or a value built before whose functions may run now (`built`). */
  type Mode = "run" | "built";
  const seen = new Map<ts.Node, Mode>();
  const via = new Map<ts.Node, ts.Node | undefined>();
  const queue: { node: ts.Node; mode: Mode }[] = [];
  const codeFiles = new Set<string>();
  const portMembers = new Set<ts.TypeElement>();
  let current: ts.Node | undefined;

  function reach(node: ts.Node, mode: Mode): void {
    if (!inTree(node) || seen.get(node) === "run" || seen.get(node) === mode) return;
    seen.set(node, mode);
    if (!via.has(node)) via.set(node, current);
    queue.push({ node, mode });
  }

  const aliased = (symbol: ts.Symbol | undefined) =>
    symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  /** What a name refers to: code is reached to run, a value for the functions it holds, a port member dispatched. */
  function follow(symbol: ts.Symbol | undefined): void {
    for (const decl of aliased(symbol)?.declarations ?? []) {
      if (!inTree(decl)) continue;
      if (ts.isMethodSignature(decl) || ts.isPropertySignature(decl)) {
        if (!via.has(decl)) via.set(decl, current);
        portMembers.add(decl);
      } else if (isFunctionLike(decl)) reach(decl, "run");
      else if (
        ts.isVariableDeclaration(decl) ||
        ts.isPropertyDeclaration(decl) ||
        ts.isPropertyAssignment(decl) ||
        ts.isShorthandPropertyAssignment(decl)
      ) {
        const value = ts.isShorthandPropertyAssignment(decl) ? undefined : decl.initializer;
        reach(decl, value && isFunctionLike(unwrap(value)) ? "run" : "built");
      }
    }
  }

  /** A class built now: its constructor and its fields' initializers run. */
  function construct(symbol: ts.Symbol | undefined): void {
    for (const decl of aliased(symbol)?.declarations ?? []) {
      if (!ts.isClassLike(decl) || !inTree(decl)) continue;
      for (const member of decl.members) {
        if (ts.isConstructorDeclaration(member)) reach(member, "run");
        if (ts.isPropertyDeclaration(member) && member.initializer && !member.modifiers?.some(isStatic)) {
          reach(member.initializer, "run");
        }
      }
      for (const clause of decl.heritageClauses ?? []) for (const t of clause.types) construct(symbolOf(t.expression));
    }
  }

  const isStatic = (m: ts.ModifierLike) => m.kind === ts.SyntaxKind.StaticKeyword;
  const symbolOf = (node: ts.Node) => checker.getSymbolAtLocation(node);
  const skipped = (node: ts.Node) =>
    ts.isTypeNode(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isImportDeclaration(node) ||
    ts.isExportDeclaration(node);

  /** Code that runs: every name it uses is followed; a function it names but does not define waits to be named. */
  function run(node: ts.Node): void {
    if (skipped(node) || (ts.isClassLike(node) && node !== current)) return;
    if (node !== current && (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node))) return;
    if (node !== current && ts.isVariableDeclaration(node) && node.initializer) {
      if (isFunctionLike(unwrap(node.initializer))) return;
    }
    if (isFunctionLike(node)) codeFiles.add(node.getSourceFile().fileName);
    if (ts.isNewExpression(node)) construct(symbolOf(node.expression));
    if (ts.isObjectLiteralExpression(node)) literal(node, run);
    else if (ts.isShorthandPropertyAssignment(node)) follow(checker.getShorthandAssignmentValueSymbol(node));
    else if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) follow(symbolOf(node));
    else ts.forEachChild(node, run);
  }

  /**
   * An object literal made now: its values are evaluated, but a function it holds (written there or named)
   * runs only when a reached body names its property or calls it through a port.
   */
  function literal(node: ts.ObjectLiteralExpression, walk: (n: ts.Node) => void): void {
    for (const p of node.properties) {
      if (ts.isSpreadAssignment(p)) walk(p.expression);
      else if (isFunctionValued(p)) continue;
      else if (ts.isPropertyAssignment(p)) walk(p.initializer);
      else if (ts.isShorthandPropertyAssignment(p)) follow(checker.getShorthandAssignmentValueSymbol(p));
    }
  }

  const isFunctionValued = (p: ts.ObjectLiteralElementLike) =>
    ts.isMethodDeclaration(p) ||
    ts.isAccessor(p) ||
    ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) &&
      checker.getTypeAtLocation(p.name).getCallSignatures().length > 0);

  /** A value built before the quote: not built again; the functions it holds or was given are reached. */
  function built(node: ts.Node): void {
    if (skipped(node)) return;
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) reach(node, "run");
    else if (ts.isObjectLiteralExpression(node)) literal(node, built);
    else if (ts.isShorthandPropertyAssignment(node)) follow(checker.getShorthandAssignmentValueSymbol(node));
    else if (ts.isCallExpression(node) || ts.isNewExpression(node)) for (const arg of node.arguments ?? []) built(arg);
    else if (ts.isPropertyAccessExpression(node)) built(node.expression);
    // A function handed over as a value may be called later; a value is followed for the functions it holds.
    else if (ts.isIdentifier(node)) follow(symbolOf(node));
    else ts.forEachChild(node, built);
  }

  /**
   * A class member or object-literal property that may implement a port's member: it does when its class or
   * literal fits the port's type, or names the port (`implements`, or the type a literal is written for): a
   * generic port's members are matched by name so.
   */
  interface Candidate {
    own: ts.Node;
    type: () => ts.Type;
    named: () => (ts.Symbol | undefined)[];
  }

  /** Every class member and object-literal property of the tree, by name. */
  const members = new Map<string, Candidate[]>();
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !inTree(file)) continue;
    ts.forEachChild(file, function visit(node): void {
      const add = (own: ts.Node, candidate: Omit<Candidate, "own">) => {
        const name = nameOf(own);
        if (name) members.set(name, [...(members.get(name) ?? []), { own, ...candidate }]);
      };
      const symbol = ts.isClassLike(node) && node.name ? symbolOf(node.name) : undefined;
      if (ts.isClassLike(node) && symbol) {
        const named = (node.heritageClauses ?? []).flatMap((h) => h.types.map((t) => aliased(symbolOf(t.expression))));
        const candidate = { type: () => checker.getDeclaredTypeOfSymbol(symbol), named: () => named };
        for (const m of node.members) add(m, candidate);
      }
      if (ts.isObjectLiteralExpression(node)) {
        const contextual = () => {
          const type = checker.getContextualType(node);
          return [type?.aliasSymbol, type?.getSymbol()];
        };
        const candidate = { type: () => checker.getTypeAtLocation(node), named: contextual };
        for (const p of node.properties) add(p, candidate);
      }
      ts.forEachChild(node, visit);
    });
  }

  const tried = new Set<string>();

  /** A port member's implementations: the same-named members of classes and literals that fit the port. */
  function dispatch(member: ts.TypeElement): void {
    const name = nameOf(member);
    const port = member.parent;
    if (!name || !(ts.isInterfaceDeclaration(port) || ts.isTypeLiteralNode(port))) return;
    const portType = checker.getTypeAtLocation(port);
    const portSymbol = ts.isInterfaceDeclaration(port) ? symbolOf(port.name) : undefined;
    const portAlias = ts.isTypeAliasDeclaration(port.parent) ? symbolOf(port.parent.name) : undefined;
    for (const { own, type, named } of members.get(name) ?? []) {
      const key = `${member.getSourceFile().fileName}:${member.pos}|${own.getSourceFile().fileName}:${own.pos}`;
      if (tried.has(key)) continue;
      tried.add(key);
      const names = named();
      const fits =
        (portSymbol && names.includes(portSymbol)) ||
        (portAlias && names.includes(portAlias)) ||
        names.some((n) => n?.declarations?.includes(port));
      // An unnamed type (a parameter's inline shape) is met by a class that fits it, but by a literal only
      // when the literal is written for it, not by every literal of the same shape.
      const unnamed = !(portSymbol || portAlias) && !ts.isClassElement(own);
      if (!fits && (unnamed || !checker.isTypeAssignableTo(type(), portType))) continue;
      current = member;
      if (isFunctionLike(own)) reach(own, "run");
      else follow(symbolOf((own as ts.NamedDeclaration).name as ts.Node));
    }
  }

  for (const entry of entries) reach(entry, "run");
  while (queue.length > 0) {
    while (queue.length > 0) {
      const { node, mode } = queue.shift() as { node: ts.Node; mode: Mode };
      current = node;
      if (isFunctionLike(node)) codeFiles.add(node.getSourceFile().fileName);
      if (mode === "run") run(node);
      else if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) {
        if (node.initializer) built(node.initializer);
      } else built(node);
    }
    // Ports named since the last pass, and values reached since, may meet: dispatch until nothing is new.
    for (const member of portMembers) dispatch(member);
  }
  return { codeFiles, via };
}
