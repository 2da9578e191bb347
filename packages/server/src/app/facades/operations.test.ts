import { describe, expect, it } from 'vitest';
import { composeOperations } from './operations.js';

class Greetings {
  readonly #name: string;

  constructor(name: string) {
    this.#name = name;
  }

  greetAsync(): Promise<string> {
    return Promise.resolve(this.#polite());
  }

  shoutAsync(): Promise<string> {
    return this.greetAsync().then((greeting) => greeting.toUpperCase());
  }

  #polite(): string {
    return `Hello, ${this.#name}`;
  }
}

class Farewells {
  partAsync(): Promise<string> {
    return Promise.resolve('Goodbye');
  }
}

describe('composeOperations', () => {
  it('puts every group method on one object, callable without this', async () => {
    const facade = composeOperations<Greetings & Farewells>({
      greetings: new Greetings('Ada'),
      farewells: new Farewells(),
    });
    const { greetAsync, shoutAsync, partAsync } = facade;
    expect(await greetAsync()).toBe('Hello, Ada');
    expect(await shoutAsync()).toBe('HELLO, ADA');
    expect(await partAsync()).toBe('Goodbye');
  });

  it('carries only the operations, never a group or its private state', () => {
    const facade = composeOperations<Greetings>({ greetings: new Greetings('Ada') });
    expect(Object.keys(facade).sort()).toEqual(['greetAsync', 'shoutAsync']);
    expect(Object.values(facade).every((member) => typeof member === 'function')).toBe(true);
    expect(JSON.stringify(facade)).toBe('{}');
  });

  it('refuses two groups that define the same operation', () => {
    expect(() => composeOperations({ one: new Farewells(), two: new Farewells() })).toThrow(
      'The facade group two defines partAsync a second time.',
    );
  });
});
