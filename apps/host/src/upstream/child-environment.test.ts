import { describe, expect, it } from 'vitest';
import { childEnvironment } from './child-environment.ts';

describe('childEnvironment', () => {
  const parent = {
    HOME: '/home/me',
    PATH: '/usr/bin',
    LANG: 'en_GB.UTF-8',
    LC_TIME: 'de_DE.UTF-8',
    OPENAI_API_KEY: 'sk-secret',
    HTTPS_PROXY: 'http://proxy:3128',
    SystemRoot: 'C:\\Windows',
  };

  it('keeps the minimal set and LC_*, adds what the entry names and its env, and nothing else', () => {
    expect(
      childEnvironment({
        env: { PATH: '/opt/bin', TOKEN: 't' },
        inheritEnv: ['HTTPS_PROXY'],
        parent,
        platform: 'linux',
      }),
    ).toEqual({
      HOME: '/home/me',
      PATH: '/opt/bin',
      LANG: 'en_GB.UTF-8',
      LC_TIME: 'de_DE.UTF-8',
      HTTPS_PROXY: 'http://proxy:3128',
      TOKEN: 't',
    });
  });

  it('keeps the system names Windows programs need, in whatever case they are spelt', () => {
    const environment = childEnvironment({ env: {}, parent, platform: 'win32' });
    expect(environment.SystemRoot).toBe('C:\\Windows');
    expect(environment.OPENAI_API_KEY).toBeUndefined();
  });
});
