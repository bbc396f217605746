// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title BlacklistToken
/// @notice Test only: a token that, like some stablecoins, refuses any transfer from or to an address its
/// owner has blacklisted, reverting with its own error. Holds no value.
contract BlacklistToken is ERC20, Ownable {
    mapping(address account => bool) public blacklisted;

    error Blacklisted(address account);

    constructor(address initialOwner) ERC20("Test Blacklist", "TBL") Ownable(initialOwner) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function setBlacklisted(address account, bool value) external onlyOwner {
        blacklisted[account] = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blacklisted[from]) revert Blacklisted(from);
        if (blacklisted[to]) revert Blacklisted(to);
        super._update(from, to, value);
    }
}
