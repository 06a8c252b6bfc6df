import { createOutboundPolicy, parseAllowlist } from './outbound-policy';

const publicOnly = createOutboundPolicy({ allowPrivate: false, allowlist: '' });

describe('createOutboundPolicy', () => {
  const refused = (policy: ReturnType<typeof createOutboundPolicy>, host: string, address = host) =>
    policy.refusal(host, address) !== null;

  it('allows public addresses and refuses every other kind by default', () => {
    expect(refused(publicOnly, '93.184.216.34')).toBe(false);
    expect(refused(publicOnly, '2606:4700:4700::1111')).toBe(false);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
    ]) {
      expect(refused(publicOnly, address)).toBe(true);
    }
  });

  it('names the host, the address and the setting that would allow it', () => {
    expect(publicOnly.refusal('metadata.internal', '169.254.169.254')).toBe(
      'metadata.internal (169.254.169.254) is a link-local address; outbound requests may only reach public addresses unless OUTBOUND_ALLOW_PRIVATE or OUTBOUND_ALLOWLIST allow it',
    );
  });

  it('allows private kinds with allowPrivate, but never unspecified, multicast or broadcast', () => {
    const policy = createOutboundPolicy({ allowPrivate: true, allowlist: '' });
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '192.0.2.1',
    ]) {
      expect(refused(policy, address)).toBe(false);
    }
    for (const address of ['0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255']) {
      expect(refused(policy, address)).toBe(true);
    }
  });

  it('allows listed ranges, addresses and host names (with a wildcard) only', () => {
    const policy = createOutboundPolicy({
      allowPrivate: false,
      allowlist: '10.1.0.0/16, ::1, registry.internal, *.corp.example',
    });
    expect(refused(policy, '10.1.2.3')).toBe(false);
    expect(refused(policy, '::ffff:10.1.2.3')).toBe(false);
    expect(refused(policy, '10.2.0.1')).toBe(true);
    expect(refused(policy, '::1')).toBe(false);
    expect(refused(policy, '127.0.0.1')).toBe(true);
    expect(refused(policy, 'registry.internal', '10.9.9.9')).toBe(false);
    expect(refused(policy, 'REGISTRY.internal.', '10.9.9.9')).toBe(false);
    expect(refused(policy, 'hooks.corp.example', '10.9.9.9')).toBe(false);
    expect(refused(policy, 'corp.example', '10.9.9.9')).toBe(true);
    expect(refused(policy, 'evilcorp.example', '10.9.9.9')).toBe(true);
  });

  it('refuses an allowlist entry that is neither an address, a range nor a host name', () => {
    expect(() => parseAllowlist('10.0.0.0/8,http://x')).toThrow('"http://x" is neither');
    expect(() => parseAllowlist('10.0.0.0/99')).toThrow('"10.0.0.0/99"');
  });
});
