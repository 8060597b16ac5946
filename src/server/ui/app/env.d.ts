// Stylesheets are imported for esbuild, which writes them to app.css.
declare module '*.css';
