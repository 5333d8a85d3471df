"""The index classifier network (PyTorch, training only; inference runs the ONNX export).

torch is imported inside :func:`build_net` so this package imports (and its doctests run)
where only the ``vision`` extra is installed. The net is small on purpose: it trains in
minutes on two CPU cores and classifies hundreds of crops per photo in milliseconds.
"""

from __future__ import annotations

from typing import Any

from cardscore.vision.labels import CLASSES

__all__ = ["build_net"]


def build_net(width: int = 1) -> Any:
    """32×32 BGR uint8 crop (NHWC) → 53 logits: the 52 cards (by ``Card.id``), "not an index".

    ``width`` multiplies every layer's channels: a wider net reads unseen designs better.
    """
    import torch
    from torch import nn

    def conv(cin: int, cout: int) -> list[nn.Module]:
        return [
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]

    class IndexNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = width
            self.features = nn.Sequential(
                *conv(3, 16 * w),
                nn.MaxPool2d(2),  # 16×16
                *conv(16 * w, 32 * w),
                nn.MaxPool2d(2),  # 8×8
                *conv(32 * w, 64 * w),
                *conv(64 * w, 64 * w),
                nn.MaxPool2d(2),  # 4×4
            )
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Dropout(0.2),
                nn.Linear(64 * w * 16, 128 * w),
                nn.ReLU(inplace=True),
                nn.Linear(128 * w, CLASSES),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            # The recogniser's crops go in as they are: scaling lives in the graph.
            x = x.permute(0, 3, 1, 2).float() / 255.0 - 0.5
            out: torch.Tensor = self.head(self.features(x))
            return out

    return IndexNet()
