import { afterEach } from 'vitest';

// Component tests (jsdom) only: Node-environment tests have no document.
if (typeof window !== 'undefined') {
  const { cleanup, configure } = await import('@testing-library/react');
  // Role queries skip jsdom's slow style computation for visibility; tests render no hidden UI
  // they would mistake for visible.
  configure({ defaultHidden: true });

  // jsdom lacks the layout APIs Mantine calls; these stand-ins answer "no match, no size".
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });

  class NoResizeObserver {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  window.ResizeObserver = NoResizeObserver;
  Element.prototype.scrollIntoView = function scrollIntoView() {};
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });

  afterEach(() => {
    cleanup();
    window.localStorage.clear();
    document.cookie.split(';').forEach((cookie) => {
      const name = cookie.split('=')[0]?.trim();
      if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    });
  });
}
