"""The shared evaluation's weights as bot parameters (``bots.evaluation`` has the model).

Kept apart from the evaluation itself, which is compiled with mypyc (``bots.COMPILED``):
pydantic models stay pure Python.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bots.evaluation import Weights


class EvalParams(BaseModel):
    """The evaluation weights as bot parameters (shared by every bot that evaluates)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn_value: float = Field(1.8, ge=0.0, le=10.0, description="points a turn is worth")
    pots: float = Field(1.0, ge=0.0, le=10.0, description="points of a visible pot")
    cloches: float = Field(2.0, ge=0.0, le=10.0, description="points of a visible cloche")
    fill_rate: float = Field(
        4.0, gt=0.5, le=6.0, description="cells a turn fills in a large region"
    )
    token_cost: float = Field(
        0.9, ge=0.0, le=5.0, description="turns a cell no tile can fill costs"
    )
    cat_token_cost: float = Field(
        0.35, ge=0.0, le=5.0, description="the same while a cat is in reserve"
    )
    cats: float = Field(0.7, ge=0.0, le=10.0, description="points of a cat in reserve")
    complete_bonus: float = Field(
        1.0, ge=0.0, le=20.0, description="extra points for completing a bed now"
    )
    target_share: float = Field(
        0.5, ge=0.0, le=1.0, description="share of the target bonus credited by progress"
    )
    start_pot: float = Field(
        1.5, ge=0.0, le=10.0, description="points of the start-space pot bonus"
    )

    def weights(self) -> Weights:
        """The evaluation weights these parameters name."""
        return Weights(
            turn_value=self.turn_value,
            pot_value=self.pots,
            cloche_value=self.cloches,
            fill_rate=self.fill_rate,
            token_cost=self.token_cost,
            cat_token_cost=self.cat_token_cost,
            cat_value=self.cats,
            complete_bonus=self.complete_bonus,
            target_share=self.target_share,
            start_pot_value=self.start_pot,
        )
