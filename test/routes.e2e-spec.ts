import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ACCESS_RULE, type AccessRule } from '../apps/api/src/auth/access.decorator';
import { createTestApp, type TestApp } from './support/test-app';

describe('every route declares its access rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [DiscoveryModule] });
  });
  afterAll(() => t.close());

  it('walks every registered route', () => {
    const discovery = t.app.get(DiscoveryService, { strict: false });
    const scanner = t.app.get(MetadataScanner);
    const reflector = t.app.get(Reflector);
    const routes: { route: string; rule?: AccessRule }[] = [];
    for (const wrapper of discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name] as () => unknown;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const path = `${Reflect.getMetadata(PATH_METADATA, controller)}/${Reflect.getMetadata(PATH_METADATA, handler)}`;
        routes.push({
          route: `${controller.name}.${name} ${path}`,
          rule: reflector.getAllAndOverride(ACCESS_RULE, [handler, controller]),
        });
      }
    }
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((r) => !r.rule).map((r) => r.route)).toEqual([]);
    // Every job route takes an API key or the user's session token, and names the scope a key needs.
    const jobsRoutes = routes.filter((r) => r.route.includes(' jobs'));
    expect(jobsRoutes.length).toBeGreaterThan(10);
    for (const r of jobsRoutes) {
      expect({ route: r.route, credential: r.rule?.credential }).toEqual({
        route: r.route,
        credential: 'api_key_or_jwt',
      });
      expect(['jobs:read', 'jobs:write']).toContain(r.rule?.scope);
    }
  });
});
