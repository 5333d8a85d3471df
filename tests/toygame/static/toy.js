// Toy's page script: served from the game's own folder, under /static/toy/.
"use strict";
document.documentElement.dataset.game = "toy";
