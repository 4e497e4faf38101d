// Tailwind CSS 4 runs as a PostCSS plugin in the Next.js build; app/globals.css holds its tokens.
export default {
  plugins: { '@tailwindcss/postcss': {} },
};
