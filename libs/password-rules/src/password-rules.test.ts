import { checkPassword } from './password-rules';

const rulesBroken = (password: string) => checkPassword(password).map((v) => v.rule);

describe('checkPassword', () => {
  it('accepts a password that meets every rule', () => {
    expect(checkPassword('Str0ng!pass')).toEqual([]);
  });

  it.each([
    ['Sh0rt!x', 'min_length'],
    ['lower0nly!', 'uppercase'],
    ['UPPER0NLY!', 'lowercase'],
    ['NoDigits!here', 'digit'],
    ['NoSpecial0here', 'special'],
  ])('reports only %s breaking %s', (password, rule) => {
    expect(rulesBroken(password)).toEqual([rule]);
  });

  it('reports a password longer than 72 bytes, the most bcrypt reads', () => {
    expect(rulesBroken(`Aa1!${'x'.repeat(68)}`)).toEqual([]);
    expect(rulesBroken(`Aa1!${'x'.repeat(69)}`)).toEqual(['max_bytes']);
    expect(rulesBroken(`Aa1!${'é'.repeat(35)}`)).toEqual(['max_bytes']);
  });

  it('reports every broken rule at once, in order', () => {
    expect(rulesBroken('abc')).toEqual(['min_length', 'uppercase', 'digit', 'special']);
    expect(rulesBroken('')).toEqual(['min_length', 'uppercase', 'lowercase', 'digit', 'special']);
  });

  it('gives each rule its own message', () => {
    const messages = checkPassword('').map((v) => v.message);
    expect(new Set(messages).size).toBe(5);
  });

  it('counts a space as a special character', () => {
    expect(rulesBroken('Pass word1')).toEqual([]);
  });

  it('counts unicode letters as letters, not special characters', () => {
    expect(rulesBroken('Ünïcödé1x')).toEqual(['special']);
    expect(rulesBroken('ÉCOLE-été1')).toEqual([]);
  });

  it('counts code points for length, so emoji are one character each', () => {
    expect(rulesBroken('Aa1!😀😀')).toEqual(['min_length']);
    expect(rulesBroken('Aa1!😀😀😀😀')).toEqual([]);
  });
});
