// 99-epilogue.js: closes the IIFE opened in 00-prologue.js.
})();
