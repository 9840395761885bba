// ESLint rule `larkmux/one-tmux-runner`: a process started with tmux as its program must go through
// src/platform/tmux-runner.ts (issue 28). A selector only sees a literal `'tmux'`; this rule also follows the program
// argument through constants and variables (`const bin = 'tmux'`), names that say tmux (`TMUX_BIN`, `opts.tmuxBin`),
// and both sides of `??` / `||` / `?:`, so a bypass through a variable is caught too.

/** child_process functions that start a program, as a bare call or a member (`cp.spawn`). */
const PROCESS_FUNCTIONS = new Set(['execFile', 'execFileSync', 'spawn', 'spawnSync', 'exec', 'execSync']);
/** A program string that is tmux: `tmux`, `/usr/bin/tmux`, or a shell line starting with it (exec/execSync). */
const TMUX_PROGRAM = /^\s*(\S*\/)?tmux(\s|$)/;
/** A name that says it holds the tmux binary. */
const TMUX_NAME = /tmux/i;
/** How many variable hops to follow (`const a = b; const b = 'tmux'`): far beyond any real code. */
const MAX_HOPS = 8;

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return null;
}

function findVariable(scope, name) {
  for (let s = scope; s; s = s.upper) {
    const v = s.set.get(name);
    if (v) return v;
  }
  return null;
}

/** The arguments callers in this file pass for parameter `param` of `fn` (`run('tmux', …)` into `run(file, …)`). */
function argumentsPassedTo(fn, param, scope) {
  const index = fn.params.findIndex((p) => p === param || (p.type === 'AssignmentPattern' && p.left === param));
  if (index < 0) return [];
  const id = fn.id ?? (fn.parent?.type === 'VariableDeclarator' ? fn.parent.id : null);
  if (!id || id.type !== 'Identifier') return [];
  const variable = findVariable(scope, id.name);
  if (!variable) return [];
  return variable.references
    .map((r) => r.identifier.parent)
    .filter((call) => call?.type === 'CallExpression' && call.callee.type === 'Identifier' && call.callee.name === id.name)
    .map((call) => call.arguments[index]);
}

function namesTmux(node, scope, hops) {
  if (!node || hops > MAX_HOPS) return false;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' && TMUX_PROGRAM.test(node.value);
    case 'TemplateLiteral':
      return TMUX_PROGRAM.test(node.quasis[0]?.value.cooked ?? '');
    case 'MemberExpression':
      return !node.computed && node.property.type === 'Identifier' && TMUX_NAME.test(node.property.name);
    case 'LogicalExpression':
      return namesTmux(node.left, scope, hops + 1) || namesTmux(node.right, scope, hops + 1);
    case 'ConditionalExpression':
      return namesTmux(node.consequent, scope, hops + 1) || namesTmux(node.alternate, scope, hops + 1);
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
      return namesTmux(node.expression, scope, hops + 1);
    case 'Identifier': {
      if (TMUX_NAME.test(node.name)) return true;
      const variable = findVariable(scope, node.name);
      if (!variable) return false;
      const inits = variable.defs.map((d) => (d.type === 'Variable' ? d.node.init : d.type === 'Parameter' && d.name.parent?.type === 'AssignmentPattern' ? d.name.parent.right : null));
      const assigned = variable.references.filter((r) => r.isWrite() && r.writeExpr).map((r) => r.writeExpr);
      const passed = variable.defs.filter((d) => d.type === 'Parameter').flatMap((d) => argumentsPassedTo(d.node, d.name, scope));
      return [...inits, ...assigned, ...passed].some((init) => namesTmux(init, scope, hops + 1));
    }
    default:
      return false;
  }
}

export const oneTmuxRunner = {
  meta: {
    type: 'problem',
    docs: { description: 'tmux is run only by src/platform/tmux-runner.ts' },
    messages: { bypass: 'Run tmux through src/platform/tmux-runner.ts (one result type, one env policy, one "no server").' },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (!name || !PROCESS_FUNCTIONS.has(name)) return;
        if (namesTmux(node.arguments[0], context.sourceCode.getScope(node), 0)) context.report({ node, messageId: 'bypass' });
      },
    };
  },
};

export const larkmuxPlugin = { rules: { 'one-tmux-runner': oneTmuxRunner } };
