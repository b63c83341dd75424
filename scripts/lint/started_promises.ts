/**
 * Lint rule `science/started-promise-awaited`: a promise kept in a variable (`const p = work()`) must be
 * awaited or handed on before the function can leave early. An `await`, `return` or `throw` between the
 * start and the first use means that, when the step in between throws (a cancelled call does), the
 * started promise is never awaited; its later rejection is unhandled, and an unhandled rejection ends a
 * Deno process. Start the promise after the step, await both together (`Promise.all`), or mark it handled
 * (`p.catch(() => {})`) before the step. A fire-and-forget chain (`void work().then(f)`) needs a `.catch`.
 * Wired into `deno lint` by deno.json's `lint.plugins`; tests/ is left out (tests stage races on purpose).
 */

/** The slice of an ESTree node this rule reads (the plugin API's union types are too narrow to walk). */
interface AstNode {
  type: string;
  range: [number, number];
  parent?: AstNode;
  [key: string]: unknown;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

const node = (value: unknown) => value as AstNode;
/** Node objects are made on access: the same node is the same kind at the same place. */
const same = (a: unknown, b: unknown) =>
  !!a && !!b && node(a).type === node(b).type && node(a).range[0] === node(b).range[0] &&
  node(a).range[1] === node(b).range[1];

function enclosingFunction(start: AstNode): AstNode | undefined {
  for (let at = start.parent; at; at = at.parent) if (FUNCTIONS.has(at.type)) return at;
  return undefined;
}

/** Whether `inner` lies inside `outer` (or is it). */
function within(inner: AstNode | undefined, outer: AstNode): boolean {
  for (let at = inner; at; at = at.parent) if (same(at, outer)) return true;
  return false;
}

function propertyName(member: AstNode): string | undefined {
  const property = node(member.property);
  return member.type === "MemberExpression" && property.type === "Identifier" ? property.name as string : undefined;
}

/** `await x`, `x.then/catch/finally(...)`, `Promise.*([x])`: the variable holds a promise. */
function usedAsPromise(ref: AstNode): boolean {
  const parent = ref.parent!;
  if (parent.type === "AwaitExpression") return true;
  if (parent.type === "MemberExpression" && same(parent.object, ref)) {
    return ["then", "catch", "finally"].includes(propertyName(parent) ?? "");
  }
  const call = parent.type === "ArrayExpression" ? parent.parent! : parent;
  const callee = call.type === "CallExpression" ? node(call.callee) : undefined;
  return !!callee && callee.type === "MemberExpression" && node(callee.object).type === "Identifier" &&
    node(callee.object).name === "Promise";
}

/**
 * A chain (`p.then(f)`, `p.finally(f)`) or an async function called on the spot, without a rejection
 * handler. (`void` of a plain call is left alone: without types, a sync call looks the same.)
 */
function forgotten(n: AstNode): boolean {
  if (n.type !== "CallExpression" || handled(n)) return false;
  const callee = node(n.callee);
  const name = propertyName(callee);
  return name === "then" || name === "finally" || (FUNCTIONS.has(callee.type) && !!callee.async);
}

/** Timers that call back and drop what the callback returns. */
const TIMERS = new Set(["setTimeout", "setInterval", "queueMicrotask"]);

/** An async function whose whole body is one try/catch: it cannot reject. */
function guarded(fn: AstNode): boolean {
  const body = node(fn.body);
  const statements = body.type === "BlockStatement" ? body.body as AstNode[] : [];
  return statements.length === 1 && statements[0].type === "TryStatement" && !!statements[0].handler;
}

/** `x` in `a.x` or `{ x: 1 }`: a name, not the variable. */
function isKey(n: AstNode): boolean {
  const parent = n.parent!;
  return (parent.type === "MemberExpression" && same(parent.property, n) && !parent.computed) ||
    (parent.type === "Property" && same(parent.key, n) && !parent.shorthand);
}

/**
 * Whether `n` starts work that may reject: a call whose chain has no rejection handler, or a
 * `new Promise` whose executor takes `reject`.
 */
function mayReject(n: AstNode | null | undefined): boolean {
  if (!n) return false;
  if (n.type === "TSAsExpression" || n.type === "TSNonNullExpression") return mayReject(node(n.expression));
  if (n.type === "CallExpression") return !handled(n);
  if (n.type !== "NewExpression") return false;
  const callee = node(n.callee);
  const executor = (n.arguments as AstNode[])[0];
  return callee.type === "Identifier" && callee.name === "Promise" &&
    (!executor || !("params" in executor) || (executor.params as unknown[]).length !== 1);
}

/** Whether a chain `a().then(...).catch(...)` has a handler for rejections. */
function handled(call: AstNode): boolean {
  for (let at = call; at.type === "CallExpression";) {
    const callee = node(at.callee);
    const name = propertyName(callee);
    if (name === "catch") return true;
    if (name === "then" && (at.arguments as unknown[]).length >= 2) return true;
    if (name === undefined) return false;
    at = node(callee.object);
  }
  return false;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const plugin: Deno.lint.Plugin = {
  name: "science",
  rules: {
    "started-promise-awaited": {
      create(context) {
        // Tests stage races on purpose (start a call, then drive the clock); a failing step fails the test.
        if (/[\\/]tests[\\/]/.test(context.filename)) return {};
        const declarators: AstNode[] = [];
        const identifiers: AstNode[] = [];
        const exits: AstNode[] = [];
        const exit = (n: unknown) => void exits.push(node(n));
        function check(decl: AstNode): void {
          const name = node(decl.id).name;
          const fn = enclosingFunction(decl);
          if (!fn) return;
          const after = decl.range[1];
          const refs = identifiers.filter((n) => n.name === name && n.range[0] >= after && within(n, fn) && !isKey(n));
          const own = (n: AstNode) => same(enclosingFunction(n), fn);
          if (!refs.some((ref) => own(ref) && usedAsPromise(ref))) return;
          const first = Math.min(...refs.map((ref) => ref.range[0]));
          // An exit that contains the first use (`return await p`, `await Promise.all([p])`) is the use.
          const leave = exits.find((e) => own(e) && e.range[0] >= after && e.range[0] < first && first >= e.range[1]);
          if (!leave) return;
          context.report({
            range: decl.range,
            message: `'${name}' is started here, but the function can leave at line ` +
              `${lineOf(context.sourceCode.text, leave.range[0])} (${leave.type}) before awaiting it: ` +
              "if that step throws, its rejection is unhandled and ends the process.",
            hint: "Start it after that step, await both together, or attach `.catch` before the step.",
          });
        }
        return {
          VariableDeclarator(declarator) {
            const decl = node(declarator);
            if (node(decl.id).type === "Identifier" && mayReject(node(decl.init))) declarators.push(decl);
          },
          Identifier: (n) => void identifiers.push(node(n)),
          AwaitExpression: exit,
          ReturnStatement: exit,
          ThrowStatement: exit,
          YieldExpression: exit,
          "Program:exit"() {
            for (const decl of declarators) check(decl);
          },
          UnaryExpression(expression) {
            const unary = node(expression);
            if (unary.operator !== "void" || !forgotten(node(unary.argument))) return;
            context.report({
              node: expression,
              message: "Fire and forget without `.catch`: if this promise rejects, the rejection is unhandled.",
              hint: "End the chain with `.catch(...)` that logs or ignores the error.",
            });
          },
          CallExpression(expression) {
            const call = node(expression);
            const callee = node(call.callee);
            if (callee.type !== "Identifier" || !TIMERS.has(callee.name as string)) return;
            const callback = (call.arguments as AstNode[])[0];
            if (!callback || !FUNCTIONS.has(callback.type) || !callback.async || guarded(callback)) return;
            context.report({
              range: callback.range,
              message: `An async callback of ${callee.name}: nobody awaits the promise it returns.`,
              hint: "Wrap its body in try/catch, or make it a plain function that ends its chain with `.catch`.",
            });
          },
        };
      },
    },
  },
};

export default plugin;
