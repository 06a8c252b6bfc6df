import { readdirSync, readFileSync } from 'node:fs';
import bcrypt from 'bcrypt';
import { comparePassword, hashPassword, setPasswordWorkerNice } from './password-hashing';

/** Nice values of this process's threads (Linux keeps one per thread). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('password hashing', () => {
  // First: a thread can always lower its own priority, but raising it back needs CAP_SYS_NICE.
  // Counted, not looked for: a Jest worker keeps the threads of the files it ran before.
  (process.platform === 'linux' ? it : it.skip)(
    'hashes on a thread of the nice value set for it, the lowest CPU priority by default',
    async () => {
      const threadsAt = (nice: number) => threadNiceValues().filter((n) => n === nice).length;
      const [at10, at19] = [threadsAt(10), threadsAt(19)];
      setPasswordWorkerNice(10);
      await hashPassword('Corr3ct-horse', 4);
      expect([threadsAt(10), threadsAt(19)]).toEqual([at10 + 1, at19]);
      setPasswordWorkerNice(19);
      await hashPassword('Corr3ct-horse', 4);
      expect([threadsAt(10), threadsAt(19)]).toEqual([at10, at19 + 1]);
      expect(threadNiceValues()).toContain(0);
    },
  );

  it('makes bcrypt hashes of the requested cost that bcrypt verifies', async () => {
    const hash = await hashPassword('Corr3ct-horse', 5);
    expect(hash).toMatch(/^\$2b\$05\$/);
    expect(await bcrypt.compare('Corr3ct-horse', hash)).toBe(true);
  });

  it('compares a password with a hash', async () => {
    const hash = await bcrypt.hash('Corr3ct-horse', 4);
    expect(await comparePassword('Corr3ct-horse', hash)).toBe(true);
    expect(await comparePassword('Wrong-horse1', hash)).toBe(false);
  });

  it('serves concurrent requests, each with its own answer', async () => {
    const passwords = ['Aa1!aaaa', 'Bb2@bbbb', 'Cc3#cccc'];
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p, 4)));
    const checks = await Promise.all(
      hashes.map((h, i) => comparePassword(passwords[(i + 1) % 3], h)),
    );
    expect(checks).toEqual([false, false, false]);
    expect(await Promise.all(hashes.map((h, i) => comparePassword(passwords[i], h)))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('rejects what bcrypt refuses', async () => {
    await expect(hashPassword('Corr3ct-horse', 40)).rejects.toThrow();
  });
});
