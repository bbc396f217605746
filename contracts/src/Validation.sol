// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Validation
/// @notice The settlement contracts' shared answer to "may this pair be traded here": only tokens the
/// owner has listed, so a signed order for an unknown (possibly malicious) token can never settle.
contract Validation is Ownable {
    mapping(address token => bool) public allowedTokens;

    event TokenAllowed(address indexed token, bool allowed);

    error TokenNotAllowed(address token);
    error SameToken(address token);

    /// @dev Takes the initial list so a fresh deployment needs no setup transaction (see docs/contracts.md).
    constructor(address initialOwner, address[] memory tokens) Ownable(initialOwner) {
        for (uint256 i = 0; i < tokens.length; i++) {
            _setAllowed(tokens[i], true);
        }
    }

    function setTokenAllowed(address token, bool allowed) external onlyOwner {
        _setAllowed(token, allowed);
    }

    /// @notice Reverts with the reason when the pair may not be traded; returns nothing otherwise.
    function validate(address sellToken, address buyToken) external view {
        if (sellToken == buyToken) revert SameToken(sellToken);
        if (!allowedTokens[sellToken]) revert TokenNotAllowed(sellToken);
        if (!allowedTokens[buyToken]) revert TokenNotAllowed(buyToken);
    }

    function _setAllowed(address token, bool allowed) private {
        allowedTokens[token] = allowed;
        emit TokenAllowed(token, allowed);
    }
}
