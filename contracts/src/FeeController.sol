// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title FeeController
/// @notice Says what protocol fee a fill owes (basis points of the output, in the buy token) and receives
/// it. The executor pays fees here rather than to the treasury directly, so the treasury can change
/// without touching the executor, and anyone can forward what has accrued.
contract FeeController is Ownable {
    using SafeERC20 for IERC20;

    /// @dev 10%: a ceiling against a fat-fingered owner, far above any fee the relay charges.
    uint16 public constant MAX_FEE_BPS = 1000;

    struct TokenFee {
        bool set;
        uint16 bps;
    }

    uint16 public defaultFeeBps;
    address public treasury;
    mapping(address token => TokenFee) public tokenFees;

    event DefaultFeeSet(uint16 bps);
    event TokenFeeSet(address indexed token, bool set, uint16 bps);
    event TreasurySet(address indexed treasury);
    event Forwarded(address indexed token, address indexed treasury, uint256 amount);

    error FeeTooHigh(uint16 bps);
    error ZeroTreasury();

    constructor(address initialOwner, address treasury_, uint16 defaultFeeBps_) Ownable(initialOwner) {
        _setTreasury(treasury_);
        _setDefaultFee(defaultFeeBps_);
    }

    /// @notice The fee bps for output paid in `token`: its own rate if one is set, else the default.
    function feeBpsFor(address token) public view returns (uint16) {
        TokenFee memory fee = tokenFees[token];
        return fee.set ? fee.bps : defaultFeeBps;
    }

    /// @notice The fee owed on `amount` of `token`, rounded down, as the relay computes it off chain.
    function feeFor(address token, uint256 amount) external view returns (uint256) {
        return (amount * feeBpsFor(token)) / 10_000;
    }

    function setDefaultFeeBps(uint16 bps) external onlyOwner {
        _setDefaultFee(bps);
    }

    function setTokenFeeBps(address token, uint16 bps) external onlyOwner {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps);
        tokenFees[token] = TokenFee(true, bps);
        emit TokenFeeSet(token, true, bps);
    }

    /// @notice Puts `token` back on the default rate.
    function clearTokenFeeBps(address token) external onlyOwner {
        delete tokenFees[token];
        emit TokenFeeSet(token, false, 0);
    }

    function setTreasury(address treasury_) external onlyOwner {
        _setTreasury(treasury_);
    }

    /// @notice Sends everything held of `token` to the treasury. Open to anyone: the destination is fixed.
    function forward(IERC20 token) external returns (uint256 amount) {
        amount = token.balanceOf(address(this));
        token.safeTransfer(treasury, amount);
        emit Forwarded(address(token), treasury, amount);
    }

    function _setDefaultFee(uint16 bps) private {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps);
        defaultFeeBps = bps;
        emit DefaultFeeSet(bps);
    }

    function _setTreasury(address treasury_) private {
        if (treasury_ == address(0)) revert ZeroTreasury();
        treasury = treasury_;
        emit TreasurySet(treasury_);
    }
}
