import helmet from 'helmet';
import { ServerResponse, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { HELMET_OPTIONS, helmetHeaders } from './security-headers';

describe('helmetHeaders', () => {
  it('replays exactly what helmet sets on a response', () => {
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    helmet(HELMET_OPTIONS)(request, response, () => undefined);
    const { set, removed } = helmetHeaders();
    expect(Object.fromEntries(set.map(([name, value]) => [name.toLowerCase(), value]))).toEqual(response.getHeaders());
    expect(removed).toEqual(['X-Powered-By']);
    expect(set).toContainEqual(['X-Frame-Options', 'DENY']);
    expect(set).toContainEqual(['Referrer-Policy', 'no-referrer']);
  });
});
