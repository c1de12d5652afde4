import { nonPublicRange } from './address-ranges';

describe('nonPublicRange', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses the IPv4 address %s as %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1'])(
    'accepts the public IPv4 address %s',
    (address) => {
      expect(nonPublicRange(address)).toBeNull();
    },
  );

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::10.0.0.1', 'reserved'],
  ])('refuses the IPv6 address %s as %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:81b::200e', '2400:cb00::1'])(
    'accepts the public IPv6 address %s',
    (address) => {
      expect(nonPublicRange(address)).toBeNull();
    },
  );

  it('judges IPv6 forms that carry an IPv4 address by that IPv4 address', () => {
    expect(nonPublicRange('::ffff:10.0.0.1')).toBe('private');
    expect(nonPublicRange('::ffff:a00:1')).toBe('private');
    expect(nonPublicRange('[::ffff:7f00:1]')).toBe('loopback');
    expect(nonPublicRange('::ffff:169.254.169.254')).toBe('link-local');
    expect(nonPublicRange('64:ff9b::127.0.0.1')).toBe('loopback');
    expect(nonPublicRange('2002:c0a8:0101::1')).toBe('private');
    expect(nonPublicRange('::ffff:8.8.8.8')).toBeNull();
    expect(nonPublicRange('64:ff9b::8.8.8.8')).toBeNull();
    expect(nonPublicRange('2002:0808:0808::1')).toBeNull();
  });

  it('throws for text that is not an IP address', () => {
    expect(() => nonPublicRange('example.com')).toThrow(/not an IP address/);
    expect(() => nonPublicRange('10.0.0.256')).toThrow(/not an IP address/);
  });
});
