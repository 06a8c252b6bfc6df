import { groupNames, userFilter } from './ldap-client';

describe('userFilter', () => {
  const template = '(&(objectClass=inetOrgPerson)(uid={username}))';

  it('puts a plain username in the filter as it is', () => {
    expect(userFilter(template, 'dana')).toBe('(&(objectClass=inetOrgPerson)(uid=dana))');
  });

  it.each([
    ['*)(uid=*', '\\2a\\29\\28uid=\\2a'],
    ['admin)(|(uid=*', 'admin\\29\\28|\\28uid=\\2a'],
    ['back\\slash', 'back\\5cslash'],
    ['nul\0byte', 'nul\\00byte'],
  ])('escapes filter syntax in %j, so that it matches only that literal name', (name, escaped) => {
    expect(userFilter(template, name)).toBe(`(&(objectClass=inetOrgPerson)(uid=${escaped}))`);
  });

  it('replaces every {username} in the template', () => {
    expect(userFilter('(|(uid={username})(mail={username}))', 'a*')).toBe(
      '(|(uid=a\\2a)(mail=a\\2a))',
    );
  });
});

describe('groupNames', () => {
  it("names each group by its DN and by its first RDN's value", () => {
    expect(
      groupNames(['cn=devs,ou=groups,dc=example,dc=org', 'CN=Domain Admins,CN=Users,DC=corp']),
    ).toEqual([
      'cn=devs,ou=groups,dc=example,dc=org',
      'devs',
      'CN=Domain Admins,CN=Users,DC=corp',
      'Domain Admins',
    ]);
  });

  it('unescapes an escaped comma in the first RDN', () => {
    expect(groupNames(['cn=Smith\\, Jones,ou=groups'])).toEqual([
      'cn=Smith\\, Jones,ou=groups',
      'Smith, Jones',
    ]);
  });

  it('gives nothing for no groups', () => {
    expect(groupNames([])).toEqual([]);
  });
});
