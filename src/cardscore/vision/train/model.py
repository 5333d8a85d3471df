"""The index classifier network (PyTorch, training only; inference runs the ONNX export).

torch is imported inside :func:`build_net` so this package imports (and its doctests run)
where only the ``vision`` extra is installed.
"""

from __future__ import annotations

from typing import Any

from cardscore.vision.labels import CLASSES

__all__ = ["build_net"]


def build_net() -> Any:
    """40×40 BGR uint8 crop (NHWC) → 53 logits: the 52 cards (by ``Card.id``), "not an index"."""
    import torch
    from torch import nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
        )

    class IndexNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(block(3, 16), block(16, 32), block(32, 64))
            self.head = nn.Sequential(
                nn.Conv2d(64, 96, 3, padding=1, bias=False),
                nn.BatchNorm2d(96),
                nn.ReLU(inplace=True),
                nn.AdaptiveAvgPool2d(1),
                nn.Flatten(),
                nn.Dropout(0.2),
                nn.Linear(96, CLASSES),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            # The recogniser's crops go in as they are: scaling lives in the graph.
            x = x.permute(0, 3, 1, 2).float() / 255.0 - 0.5
            out: torch.Tensor = self.head(self.features(x))
            return out

    return IndexNet()
