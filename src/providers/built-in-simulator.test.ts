import { loadGatewayConfig } from '../config/load-config';
import type { ProviderConfigError } from './resolved-provider';

const keyless = loadGatewayConfig({}).config;
const withOpenAIKey = loadGatewayConfig({ OPENAI_API_KEY: 'sk-real' }).config;

function notFound(module: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`Cannot find module '${module}'\nRequire stack:\n- built-in-simulator.ts`);
  error.code = 'MODULE_NOT_FOUND';
  return error;
}

/** The loader (and its error class, from the same module registry) as in an install where requiring the package throws `error`. */
function loaderWhereRequireThrows(error: Error): typeof import('./built-in-simulator') & { ProviderConfigError: typeof ProviderConfigError } {
  let loader!: typeof import('./built-in-simulator') & { ProviderConfigError: typeof ProviderConfigError };
  jest.isolateModules(() => {
    jest.doMock('@model-gateway/simulator', () => {
      throw error;
    });
    loader = {
      ...(require('./built-in-simulator') as typeof import('./built-in-simulator')),
      ProviderConfigError: (require('./resolved-provider') as typeof import('./resolved-provider')).ProviderConfigError,
    };
  });
  return loader;
}

afterEach(() => jest.dontMock('@model-gateway/simulator'));

describe('the built-in simulator', () => {
  it('starts from the package and replays the repository recordings', async () => {
    const { startBuiltInSimulator } = require('./built-in-simulator') as typeof import('./built-in-simulator');
    const simulator = await startBuiltInSimulator(keyless, { port: 0 });
    try {
      const response = await fetch(`${simulator.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-sim', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi [sim replay=text]' }] }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content).toMatch(/^\*\*Holiday Name:\*\*/);
    } finally {
      await simulator.close();
    }
  });

  it('without the package, fails the start naming the keyless providers and how to get the package', async () => {
    const isolated = loaderWhereRequireThrows(notFound('@model-gateway/simulator'));

    const failure = await isolated.startBuiltInSimulator(withOpenAIKey, { port: 0 }).catch((error: unknown) => error);

    // main.ts prints a ProviderConfigError as one line and exits 1.
    expect(failure).toBeInstanceOf(isolated.ProviderConfigError);
    const message = (failure as Error).message;
    expect(message).toContain('provider anthropic (ANTHROPIC_API_KEY unset)');
    expect(message).toContain('search backend tavily (TAVILY_API_KEY unset)');
    expect(message).not.toContain('provider openai');
    expect(message).toContain('--build-arg WITH_SIMULATOR=1');
  });

  it('passes on a module missing inside the package as it is: that is a broken install, not an absent one', async () => {
    const broken = notFound('busboy');
    const { startBuiltInSimulator } = loaderWhereRequireThrows(broken);

    await expect(startBuiltInSimulator(keyless, { port: 0 })).rejects.toBe(broken);
  });
});
