// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title RfqLegs
/// @notice The legs of one RFQ swap, each a resolver's part of it, and the shape a set of them keeps to be
/// filled together: 1 to MAX_LEGS legs of different resolvers, none of zero, whose parts sum to exactly the
/// swap's sell amount (docs/contracts.md, "The fill call"; docs/legs.md).
abstract contract RfqLegs {
    /// @notice One leg: a resolver, the part of the swap's sell amount it takes, the output it gives for it,
    /// and its RfqFill signature over exactly those amounts.
    struct Bid {
        address resolver;
        uint256 sellAmount;
        uint256 outputAmount;
        bytes signature;
    }

    /// @notice The most legs one fill takes (docs/legs.md, "How many legs a fill may have").
    uint256 public constant MAX_LEGS = 4;

    /// @notice The fill has no legs, or more than MAX_LEGS.
    error LegCountOutOfRange(uint256 legs, uint256 maxLegs);
    /// @notice A leg that sells nothing or delivers nothing.
    error ZeroAmountLeg(address resolver);
    /// @notice A resolver appears in two legs.
    error DuplicateResolver(address resolver);
    /// @notice The legs' parts do not sum to exactly the swap's sell amount.
    error LegsSumMismatch(uint256 legsSellAmount, uint256 sellAmount);

    /// @dev Refuses legs out of that shape, leg by leg, the sum last.
    function _checkLegShape(Bid[] calldata bids, uint256 sellAmount) internal pure {
        uint256 legs = bids.length;
        if (legs == 0 || legs > MAX_LEGS) revert LegCountOutOfRange(legs, MAX_LEGS);
        uint256 legsSellAmount;
        for (uint256 i = 0; i < legs; i++) {
            address resolver = bids[i].resolver;
            if (bids[i].sellAmount == 0 || bids[i].outputAmount == 0) revert ZeroAmountLeg(resolver);
            for (uint256 j = 0; j < i; j++) {
                if (bids[j].resolver == resolver) revert DuplicateResolver(resolver);
            }
            legsSellAmount += bids[i].sellAmount;
        }
        if (legsSellAmount != sellAmount) revert LegsSumMismatch(legsSellAmount, sellAmount);
    }
}
