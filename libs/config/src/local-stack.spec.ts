import { parseLocalStack } from './local-stack';

describe('parseLocalStack', () => {
  const env = {
    DATABASE_URL: 'postgres://postgres:docconv@127.0.0.1:5555/docconv',
    REDIS_URL: 'redis://127.0.0.1:6666',
  };

  it('gives the settings of a stack whose launcher runs', () => {
    expect(parseLocalStack(JSON.stringify({ pid: 4242, env }), (pid) => pid === 4242)).toEqual(env);
  });

  it('gives nothing when the launcher that wrote the file is gone', () => {
    expect(parseLocalStack(JSON.stringify({ pid: 4242, env }), () => false)).toEqual({});
  });

  it('gives nothing for a file without a launcher pid or that is not JSON', () => {
    expect(parseLocalStack(JSON.stringify(env), () => true)).toEqual({});
    expect(parseLocalStack('{"pid": 4242, "env":', () => true)).toEqual({});
  });

  it('checks the pid against the processes of this machine by default', () => {
    expect(parseLocalStack(JSON.stringify({ pid: process.pid, env }))).toEqual(env);
  });
});
