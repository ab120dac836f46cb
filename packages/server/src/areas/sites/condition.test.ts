import { describe, expect, it } from 'vitest';
import { evaluateCondition, parseCondition, referencedClaims, type Visitor } from './condition.js';

const visitor: Visitor = {
  claims: { plan: 'pro', seats: 12, roles: ['admin', 'editor'], beta: true, email: 'Ann@Example.com', org: { tier: 'gold' }, unsigned: { preview: true } },
};

function holds(text: string, who: Visitor = visitor): boolean {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.message} at ${parsed.position}`);
  return evaluateCondition(parsed.ast, who);
}

function refused(text: string): { message: string; position: number } {
  const parsed = parseCondition(text);
  if (parsed.ok) throw new Error(`${text} was accepted`);
  return { message: parsed.message, position: parsed.position };
}

describe('parseCondition and evaluateCondition', () => {
  it.each([
    ['visitor.claims.plan === "pro"', true],
    ['visitor.claims.plan !== "pro"', false],
    ['visitor.claims.seats >= 10 && visitor.claims.seats < 20', true],
    ['visitor.claims.roles.includes("admin")', true],
    ['visitor.claims.roles.includes("owner")', false],
    ['["pro", "team"].includes(visitor.claims.plan)', true],
    ['visitor.claims.unsigned.preview', true],
    ['!visitor.claims.unsigned.preview', false],
    ['visitor.claims.missing', false],
    ['visitor.claims.missing?.deeper', false],
    ['visitor.claims.missing.deeper.still', false],
    ['visitor.claims.org.tier == "gold"', true],
    ['visitor.claims["plan"] === "pro"', true],
    ['visitor.claims.roles[1] === "editor"', true],
    ['visitor.claims.roles.length === 2', true],
    ['visitor.claims.email.toLowerCase().endsWith("@example.com")', true],
    ['visitor.claims.email.startsWith("Ann")', true],
    ['visitor.claims.beta ? visitor.claims.seats > 100 : true', false],
    ['visitor.claims.missing ?? true', true],
    ['visitor.claims.missing == null', true],
    ['visitor.claims.seats == "12"', false],
    ['-visitor.claims.seats < 0', true],
    ['visitor.claims.plan < 3', false],
    ['visitor.claims.plan || false', true],
  ])('%s → %s', (text, expected) => {
    expect(holds(text)).toBe(expected);
  });

  it('evaluates against a visitor without claims', () => {
    expect(holds('visitor.claims.plan === "pro"', { claims: {} })).toBe(false);
    expect(holds('!visitor.claims.unsigned.preview', { claims: {} })).toBe(true);
  });

  it('gives the position of a syntax error', () => {
    expect(refused('visitor.claims.plan === ')).toEqual({ message: expect.stringMatching(/^Invalid syntax: Unexpected token/), position: 24 });
    expect(refused('visitor.claims.plan === "pro" &&& true').position).toBe(32);
    expect(refused('a; b')).toEqual({ message: 'A condition is one expression', position: 3 });
    expect(refused('')).toEqual({ message: 'A condition cannot be empty', position: 0 });
  });

  it.each([
    ['this.constructor', '"this" is not allowed', 0],
    ['visitor.claims.constructor', 'The property "constructor" is not allowed', 15],
    ['visitor.claims.__proto__.polluted', 'The property "__proto__" is not allowed', 15],
    ['visitor.claims["__proto__"]', 'The property "__proto__" is not allowed', 15],
    ['visitor.claims.plan.constructor.constructor("return process")()', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 0],
    ['visitor.claims.plan.constructor.name', 'The property "constructor" is not allowed', 20],
    ['undefined', 'Unknown name "undefined": conditions read visitor.claims', 0],
    ['visitor.claims.roles.map(x => x)', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 0],
    ['eval("1")', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 0],
    ['Function("return 1")()', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 0],
    ['process.exit()', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 0],
    ['visitor.claims["con" + "structor"]', 'A computed property must be a text or a non-negative integer literal', 15],
    ['visitor.claims[visitor.claims.key]', 'A computed property must be a text or a non-negative integer literal', 15],
    ['visitor.claims.plan = "pro"', 'Assignment expression is not allowed in a condition', 0],
    ['visitor.claims.seats++', 'Update expression is not allowed in a condition', 0],
    ['(() => 1)()', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 1],
    ['new Date()', 'New expression is not allowed in a condition', 0],
    ['`${visitor.claims.plan}`', 'Template literal is not allowed in a condition', 0],
    ['/a+/.test("aaa")', 'Only these methods may be called: includes, startsWith, endsWith, toLowerCase, toUpperCase', 0],
    ['({}).toString', 'Object expression is not allowed in a condition', 1],
    ['globalThis', 'Unknown name "globalThis": conditions read visitor.claims', 0],
    ['visitor', 'Use the visitor’s claims: visitor.claims.<name>', 0],
    ['visitor.secret', 'The visitor has only claims: visitor.claims.<name>', 8],
    ['typeof visitor.claims.plan', 'The operator "typeof" is not allowed', 0],
    ['visitor.claims.plan in visitor.claims', 'The operator "in" is not allowed', 0],
    ['visitor.claims.seats + 1 > 2', 'The operator "+" is not allowed', 0],
    ['(1, 2)', 'Sequence expression is not allowed in a condition', 1],
    ['1e999 > 0', 'A number literal must be finite', 0],
    ['10n > 1', 'Regular expressions and big integers are not allowed', 0],
    ['[...visitor.claims.roles]', 'Array holes and spreads are not allowed', 1],
  ])('refuses %s', (text, message, position) => {
    expect(refused(text)).toEqual({ message, position });
  });

  it('refuses deep nesting, too many parts, huge literals and long texts', () => {
    expect(refused(`${'!'.repeat(40)}true`).message).toBe('A condition nests at most 32 levels');
    expect(refused(`${'['.repeat(40)}1${']'.repeat(40)}`).message).toBe('A condition nests at most 32 levels');
    expect(holds(`${'('.repeat(500)}true${')'.repeat(500)}`)).toBe(true);
    expect(refused(`${'('.repeat(600)}true${')'.repeat(600)}`).message).toBe('A condition is at most 1024 characters');
    expect(refused(Array.from({ length: 300 }, () => '1').join('||')).message).toMatch(/nests at most|at most 256 parts/);
    expect(refused(`[${Array.from({ length: 150 }, () => '1').join(',')}].includes(1)`).message).toBe('An array has at most 100 items');
    expect(refused(`visitor.claims.plan === "${'x'.repeat(300)}"`).message).toBe('A text literal is at most 256 characters');
    expect(refused(`visitor.claims.a === "${'x'.repeat(1100)}"`).message).toBe('A condition is at most 1024 characters');
  });

  it('never reads past the claims’ own data', () => {
    const tricky: Visitor = { claims: Object.assign(Object.create({ inherited: true }), { own: 1 }) as Record<string, unknown> };
    expect(holds('visitor.claims.inherited', tricky)).toBe(false);
    expect(holds('visitor.claims.toString', visitor)).toBe(false);
    expect(holds('visitor.claims.hasOwnProperty', visitor)).toBe(false);
    expect(holds('visitor.claims.plan.length === 3', visitor)).toBe(true);
    expect(holds('visitor.claims.roles.includes(visitor.claims.org)', visitor)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('lists the claims a condition reads', () => {
    const parsed = parseCondition('visitor.claims.plan === "pro" || visitor.claims.unsigned.beta && visitor.claims.org["tier"].length > 1');
    expect(parsed.ok && referencedClaims(parsed.ast)).toEqual([['plan'], ['unsigned', 'beta'], ['org', 'tier', 'length']]);
  });
});
