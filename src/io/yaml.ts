// YAML for the modules that load it on demand: the package is CommonJS, and an import() of it in
// the bundle would give only its default export, where a static import gives each name.
export { parse, stringify } from 'yaml';
