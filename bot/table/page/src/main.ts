// The table page's entry point (bundled by build.mjs into dist/assets/main-<hash>.js).
export {};
