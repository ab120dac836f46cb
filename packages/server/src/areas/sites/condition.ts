// Conditions of site sections and site spaces: small expressions over a visitor's claims, such as
// `visitor.claims.plan === "pro" && !visitor.claims.unsigned.beta`. They are parsed once when written
// (acorn), checked against an allow-list and turned into a tree of our own, which `evaluateCondition`
// walks. No code is ever run: no eval, no Function, no access to anything but the claims' own data.
import { parse, type Node } from 'acorn';

/** The checked tree of a condition (plain JSON: it can be stored or cached as is). */
export type ConditionNode =
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'array'; items: ConditionNode[] }
  /** `visitor.claims` followed by `path` (property names and indexes; `?.` reads the same: a missing value is undefined). */
  | { kind: 'claim'; path: Array<string | number> }
  | { kind: 'member'; object: ConditionNode; property: string | number }
  | { kind: 'unary'; operator: '!' | '-'; argument: ConditionNode }
  | { kind: 'binary'; operator: ComparisonOperator; left: ConditionNode; right: ConditionNode }
  | { kind: 'logical'; operator: '&&' | '||' | '??'; left: ConditionNode; right: ConditionNode }
  | { kind: 'conditional'; test: ConditionNode; consequent: ConditionNode; alternate: ConditionNode }
  | { kind: 'call'; method: AllowedMethod; target: ConditionNode; args: ConditionNode[] };

type ComparisonOperator = '===' | '!==' | '==' | '!=' | '<' | '<=' | '>' | '>=';

const COMPARISONS = new Set<string>(['===', '!==', '==', '!=', '<', '<=', '>', '>=']);
const METHODS = ['includes', 'startsWith', 'endsWith', 'toLowerCase', 'toUpperCase'] as const;
type AllowedMethod = (typeof METHODS)[number];
/** Names that reach into JavaScript's object model rather than the claims' data. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

export const CONDITION_LIMITS = { length: 1024, depth: 32, nodes: 256, arrayItems: 100, stringLiteral: 256 } as const;

export type ParsedCondition = { ok: true; ast: ConditionNode } | { ok: false; message: string; position: number };

class ConditionError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Parses and checks a condition; never throws. `position` is the 0-based offset of the problem. */
export function parseCondition(text: string): ParsedCondition {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, message: 'A condition cannot be empty', position: 0 };
  if (text.length > CONDITION_LIMITS.length) return { ok: false, message: `A condition is at most ${CONDITION_LIMITS.length} characters`, position: CONDITION_LIMITS.length };
  let program;
  try {
    program = parse(text, { ecmaVersion: 2022, sourceType: 'script', allowReturnOutsideFunction: false });
  } catch (error) {
    const e = error as { message?: string; pos?: number };
    return { ok: false, message: `Invalid syntax: ${String(e.message ?? 'unreadable').replace(/ \(\d+:\d+\)$/, '')}`, position: typeof e.pos === 'number' ? e.pos : 0 };
  }
  const body = (program as unknown as { body: Node[] }).body;
  if (body.length !== 1 || body[0]!.type !== 'ExpressionStatement') {
    return { ok: false, message: 'A condition is one expression', position: body[1]?.start ?? body[0]?.start ?? 0 };
  }
  try {
    const counter = { nodes: 0 };
    return { ok: true, ast: convert((body[0] as unknown as { expression: Node }).expression, 0, counter) };
  } catch (error) {
    if (error instanceof ConditionError) return { ok: false, message: error.message, position: error.position };
    throw error;
  }
}

// acorn's node types are a union per ecmaVersion; the checks below read the fields each type has.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = Node & Record<string, any>;

function convert(node: AnyNode, depth: number, counter: { nodes: number }): ConditionNode {
  if (depth > CONDITION_LIMITS.depth) throw new ConditionError(`A condition nests at most ${CONDITION_LIMITS.depth} levels`, node.start);
  if (++counter.nodes > CONDITION_LIMITS.nodes) throw new ConditionError(`A condition has at most ${CONDITION_LIMITS.nodes} parts`, node.start);
  const next = (child: AnyNode) => convert(child, depth + 1, counter);
  switch (node.type) {
    case 'Literal': {
      const value = node.value as unknown;
      if (node.regex || node.bigint !== undefined) throw new ConditionError('Regular expressions and big integers are not allowed', node.start);
      if (typeof value === 'string' && value.length > CONDITION_LIMITS.stringLiteral) {
        throw new ConditionError(`A text literal is at most ${CONDITION_LIMITS.stringLiteral} characters`, node.start);
      }
      if (typeof value === 'number' && !Number.isFinite(value)) throw new ConditionError('A number literal must be finite', node.start);
      return { kind: 'literal', value: value as string | number | boolean | null };
    }
    case 'ArrayExpression': {
      if (node.elements.length > CONDITION_LIMITS.arrayItems) throw new ConditionError(`An array has at most ${CONDITION_LIMITS.arrayItems} items`, node.start);
      return {
        kind: 'array',
        items: node.elements.map((element: AnyNode | null) => {
          if (!element || element.type === 'SpreadElement') throw new ConditionError('Array holes and spreads are not allowed', element?.start ?? node.start);
          return next(element);
        }),
      };
    }
    case 'ChainExpression':
      return convert(node.expression, depth, counter);
    case 'Identifier':
      if (node.name === 'visitor') throw new ConditionError('Use the visitor’s claims: visitor.claims.<name>', node.start);
      throw new ConditionError(`Unknown name "${node.name}": conditions read visitor.claims`, node.start);
    case 'MemberExpression':
      return member(node, next);
    case 'UnaryExpression':
      if (node.operator !== '!' && node.operator !== '-') throw new ConditionError(`The operator "${node.operator}" is not allowed`, node.start);
      return { kind: 'unary', operator: node.operator, argument: next(node.argument) };
    case 'BinaryExpression':
      if (!COMPARISONS.has(node.operator)) throw new ConditionError(`The operator "${node.operator}" is not allowed`, node.start);
      return { kind: 'binary', operator: node.operator, left: next(node.left), right: next(node.right) };
    case 'LogicalExpression':
      return { kind: 'logical', operator: node.operator, left: next(node.left), right: next(node.right) };
    case 'ConditionalExpression':
      return { kind: 'conditional', test: next(node.test), consequent: next(node.consequent), alternate: next(node.alternate) };
    case 'CallExpression': {
      const callee = node.callee as AnyNode;
      if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier' || !(METHODS as readonly string[]).includes(callee.property.name)) {
        throw new ConditionError(`Only these methods may be called: ${METHODS.join(', ')}`, callee.start);
      }
      if (node.arguments.length > 2) throw new ConditionError('A method takes at most two arguments', node.start);
      return {
        kind: 'call',
        method: callee.property.name as AllowedMethod,
        target: next(callee.object),
        args: node.arguments.map((argument: AnyNode) => {
          if (argument.type === 'SpreadElement') throw new ConditionError('Spreads are not allowed', argument.start);
          return next(argument);
        }),
      };
    }
    case 'ThisExpression':
      throw new ConditionError('"this" is not allowed', node.start);
    default:
      throw new ConditionError(`${describe(node.type)} is not allowed in a condition`, node.start);
  }
}

function describe(type: string): string {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A property access: either a step along `visitor.claims…`, or a property of another value (`.length`). */
function member(node: AnyNode, next: (child: AnyNode) => ConditionNode): ConditionNode {
  const object = node.object as AnyNode;
  // `visitor.claims` itself: the root of every claim path.
  if (object.type === 'Identifier' && object.name === 'visitor') {
    if (propertyOf(node) !== 'claims') throw new ConditionError('The visitor has only claims: visitor.claims.<name>', node.property.start);
    return { kind: 'claim', path: [] };
  }
  const target = next(object);
  const property = propertyOf(node);
  if (target.kind === 'claim') return { kind: 'claim', path: [...target.path, property] };
  return { kind: 'member', object: target, property };
}

function propertyOf(node: AnyNode): string | number {
  const property = node.property as AnyNode;
  let name: string | number;
  if (!node.computed && property.type === 'Identifier') name = property.name;
  else if (node.computed && property.type === 'Literal' && (typeof property.value === 'string' || (typeof property.value === 'number' && Number.isInteger(property.value) && property.value >= 0))) {
    name = property.value;
  } else throw new ConditionError('A computed property must be a text or a non-negative integer literal', property.start);
  if (typeof name === 'string' && (FORBIDDEN_NAMES.has(name) || name.startsWith('__'))) throw new ConditionError(`The property "${name}" is not allowed`, property.start);
  return name;
}

/** The claim paths a condition reads (`visitor.claims.a.b` → ['a', 'b']). */
export function referencedClaims(ast: ConditionNode): Array<Array<string | number>> {
  const found: Array<Array<string | number>> = [];
  const walk = (node: ConditionNode): void => {
    switch (node.kind) {
      case 'claim':
        found.push(node.path);
        return;
      case 'literal':
        return;
      case 'array':
        return node.items.forEach(walk);
      case 'member':
        return walk(node.object);
      case 'unary':
        return walk(node.argument);
      case 'binary':
      case 'logical':
        walk(node.left);
        return walk(node.right);
      case 'conditional':
        walk(node.test);
        walk(node.consequent);
        return walk(node.alternate);
      case 'call':
        walk(node.target);
        return node.args.forEach(walk);
    }
  };
  walk(ast);
  return found;
}

/** What a condition is evaluated over: the visitor's claims, signed ones and `unsigned` ones. */
export type Visitor = { claims: Record<string, unknown> & { unsigned?: Record<string, unknown> } };

type Value = unknown;

/** A property of claim data: own data only (never the prototype chain), `length` of texts and arrays. */
function read(value: Value, property: string | number): Value {
  if (typeof value === 'string') {
    if (property === 'length') return value.length;
    return typeof property === 'number' ? value[property] : undefined;
  }
  if (Array.isArray(value)) {
    if (property === 'length') return value.length;
    const index = typeof property === 'number' ? property : /^(0|[1-9]\d*)$/.test(property) ? Number(property) : -1;
    return index >= 0 && index < value.length ? value[index] : undefined;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.hasOwn(value, property) ? (value as Record<string | number, Value>)[property] : undefined;
  }
  return undefined;
}

const isPrimitive = (value: Value) => value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);

function compare(operator: ComparisonOperator, left: Value, right: Value): boolean {
  switch (operator) {
    case '===':
      return left === right;
    case '!==':
      return left !== right;
    // Loose equality only relates null and undefined; otherwise it is strict (no coercion of data into code paths).
    case '==':
      return left === right || (left == null && right == null);
    case '!=':
      return !(left === right || (left == null && right == null));
    default: {
      const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
      if (!comparable) return false;
      const [a, b] = [left as number | string, right as number | string];
      return operator === '<' ? a < b : operator === '<=' ? a <= b : operator === '>' ? a > b : a >= b;
    }
  }
}

function call(method: AllowedMethod, target: Value, args: Value[]): Value {
  if (method === 'includes') {
    if (Array.isArray(target)) return isPrimitive(args[0]) ? target.includes(args[0]) : false;
    return typeof target === 'string' && typeof args[0] === 'string' ? target.includes(args[0]) : false;
  }
  if (typeof target !== 'string') return undefined;
  if (method === 'toLowerCase') return target.toLowerCase();
  if (method === 'toUpperCase') return target.toUpperCase();
  if (typeof args[0] !== 'string') return false;
  return method === 'startsWith' ? target.startsWith(args[0]) : target.endsWith(args[0]);
}

function evaluate(node: ConditionNode, visitor: Visitor): Value {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'array':
      return node.items.map((item) => evaluate(item, visitor));
    case 'claim':
      return node.path.reduce<Value>((value, property) => read(value, property), visitor.claims);
    case 'member':
      return read(evaluate(node.object, visitor), node.property);
    case 'unary': {
      const value = evaluate(node.argument, visitor);
      return node.operator === '!' ? !value : typeof value === 'number' ? -value : undefined;
    }
    case 'binary':
      return compare(node.operator, evaluate(node.left, visitor), evaluate(node.right, visitor));
    case 'logical': {
      const left = evaluate(node.left, visitor);
      if (node.operator === '&&') return left ? evaluate(node.right, visitor) : left;
      if (node.operator === '||') return left ? left : evaluate(node.right, visitor);
      return left ?? evaluate(node.right, visitor);
    }
    case 'conditional':
      return evaluate(node.test, visitor) ? evaluate(node.consequent, visitor) : evaluate(node.alternate, visitor);
    case 'call':
      return call(node.method, evaluate(node.target, visitor), node.args.map((arg) => evaluate(arg, visitor)));
  }
}

/** Whether the visitor sees the item: the condition's value, truthy or not. */
export function evaluateCondition(ast: ConditionNode, visitor: Visitor): boolean {
  return Boolean(evaluate(ast, visitor));
}

/** Parses a stored condition (already checked when written) and evaluates it; an unreadable one hides the item. */
export function conditionHolds(condition: string | null, visitor: Visitor): boolean {
  if (condition === null) return true;
  const parsed = parseCondition(condition);
  return parsed.ok && evaluateCondition(parsed.ast, visitor);
}
