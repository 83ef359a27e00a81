import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * QuickJS loaded once per realm and shared by the programs run here, each in a runtime of its
 * own. An instance a program broke (the host's stack ran out inside it) is dropped, and the
 * next program loads a fresh one.
 */
export class QuickJSLoader {
  #loading: Promise<QuickJSWASMModule> | undefined;

  constructor(readonly variant: () => Promise<QuickJSSyncVariant>) {}

  load(): Promise<QuickJSWASMModule> {
    if (!this.#loading) {
      const loading = this.variant().then((variant) => newQuickJSWASMModuleFromVariant(variant));
      this.#loading = loading;
      loading.catch(() => this.#drop(loading));
    }
    return this.#loading;
  }

  /** Forget `module`: it broke. */
  drop(module: QuickJSWASMModule): void {
    void this.#loading?.then((loaded) => loaded === module && this.#loading && this.#drop(this.#loading));
  }

  #drop(loading: Promise<QuickJSWASMModule>): void {
    if (this.#loading === loading) this.#loading = undefined;
  }
}
