// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title GuardedLegs
/// @notice Moves each party's tokens in a guarded call and, when one fails, reverts naming whose leg it
/// was with the token's own revert data, so a failed fill is blamed by the chain's evidence whatever the
/// token does (docs/contracts.md, "Leg errors"; docs/reliability.md, "Blame").
abstract contract GuardedLegs {
    /// @notice The taker's pull through Permit2 failed; `reason` is Permit2's (or the token's) revert data.
    error TakerLegFailed(bytes reason);
    /// @notice The output pulled from `resolver` to this contract, or the sell token sent to it, failed. A fill
    /// of several resolvers' legs names the one whose transfer failed, so only that one is blamed.
    error ResolverLegFailed(address resolver, bytes reason);
    /// @notice The output sent on to the recipient the taker named failed (the contract held it already).
    error RecipientLegFailed(bytes reason);
    /// @notice The protocol fee's transfer to the fee controller or the gas fee's to the keeper failed.
    error FeeLegFailed(bytes reason);

    enum Leg {
        Taker,
        Resolver,
        Recipient,
        Fee
    }

    /// @dev A resolver's leg sends to the resolver: `to` is the one a failure names.
    function _legTransfer(Leg leg, address token, address to, uint256 amount) internal {
        _legCall(leg, to, token, abi.encodeCall(IERC20.transfer, (to, amount)));
    }

    /// @dev A resolver's leg pulls from the resolver: `from` is the one a failure names.
    function _legTransferFrom(Leg leg, address token, address from, address to, uint256 amount) internal {
        _legCall(leg, from, token, abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
    }

    /// @dev As SafeERC20: a revert, a return other than `true`, and a call to an address without code all
    /// fail; unlike it, the failure names the leg (and a resolver's leg its `party`) and carries what the
    /// token returned.
    function _legCall(Leg leg, address party, address token, bytes memory data) private {
        (bool ok, bytes memory returned) = token.call(data);
        if (ok) {
            if (returned.length == 0) {
                ok = token.code.length > 0;
            } else {
                uint256 word;
                if (returned.length >= 32) {
                    assembly ("memory-safe") {
                        word := mload(add(returned, 32))
                    }
                }
                ok = word == 1;
            }
        }
        if (!ok) _legFailed(leg, party, returned);
    }

    function _legFailed(Leg leg, address party, bytes memory reason) internal pure {
        if (leg == Leg.Taker) revert TakerLegFailed(reason);
        if (leg == Leg.Resolver) revert ResolverLegFailed(party, reason);
        if (leg == Leg.Recipient) revert RecipientLegFailed(reason);
        revert FeeLegFailed(reason);
    }
}
