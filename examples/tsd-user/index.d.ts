// The project's public types: its tools and its scripted turn.
export * from './tools.js';
